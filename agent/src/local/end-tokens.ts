import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Special tokens that end a turn or a text in common chat templates: <|im_end|>, <|eot_id|>, <|end|>, <end_of_turn>, <|endoftext|>. */
const ENDS_SOMETHING = /end|eot/i;

/**
 * The ids a reply must stop on, read from a model folder: `generation_config.json`'s
 * `eos_token_id`, the tokenizer's `eos_token`, and each special token the chat template writes
 * that ends a turn (a base model's eos is `<|endoftext|>` while its ChatML template ends turns
 * with `<|im_end|>`: both must stop). Files that are missing or unreadable add nothing; the
 * server reports broken ones when it loads them.
 */
export function endTokenIds(modelDir: string): number[] {
  const tokenizer = readJson(join(modelDir, 'tokenizer.json')) as {
    added_tokens?: { id: number; content: string; special?: boolean }[];
    model?: { vocab?: Record<string, number> };
  };
  const config = readJson(join(modelDir, 'tokenizer_config.json')) as {
    eos_token?: string | { content?: string };
    chat_template?: unknown;
  };
  const generation = readJson(join(modelDir, 'generation_config.json')) as { eos_token_id?: number | number[] };
  const special = tokenizer.added_tokens ?? [];
  const idOf = (content: string | undefined) =>
    content === undefined
      ? undefined
      : (special.find((t) => t.content === content)?.id ?? tokenizer.model?.vocab?.[content]);
  const eos = typeof config.eos_token === 'string' ? config.eos_token : config.eos_token?.content;
  const template = typeof config.chat_template === 'string' ? config.chat_template : '';
  const ids = [
    ...[generation.eos_token_id ?? []].flat(),
    idOf(eos),
    ...special
      .filter((t) => t.special && ENDS_SOMETHING.test(t.content) && template.includes(t.content))
      .map((t) => t.id),
  ];
  return [...new Set(ids.filter((id): id is number => Number.isInteger(id)))].sort((a, b) => a - b);
}

function readJson(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
