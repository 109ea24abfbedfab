import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { ChatTemplate, chatTemplateSource, type TemplateMessage, type ChatTemplateOptions } from './chat-template.js';
import { ModelFileError } from './errors.js';
import { pathExists, readTextFile } from './files.js';
import { JsonObjectReader, describeValue } from './json-reader.js';

export interface SpecialToken {
  id: number;
  content: string;
}

/** Every file ModelTokenizer.load may read from a model folder (the rest of the folder is weights and model config). */
export const TOKENIZER_FILES = [
  'tokenizer.json',
  'tokenizer_config.json',
  'generation_config.json',
  'chat_template.jinja',
] as const;

/** A model folder's tokenizer files as text, absent ones left out: enough to build the same tokenizer anywhere. */
export type TokenizerFiles = Partial<Record<(typeof TOKENIZER_FILES)[number], string>>;

/** Reads TOKENIZER_FILES from a model folder; tokenizer.json must be there, the rest may not. */
export async function readTokenizerFiles(dir: string): Promise<TokenizerFiles> {
  const files: TokenizerFiles = {};
  for (const name of TOKENIZER_FILES) {
    const file = join(dir, name);
    if (name === 'tokenizer.json' || (await pathExists(file))) files[name] = await readTextFile(file);
  }
  return files;
}

/**
 * A model folder's tokenizer (`tokenizer.json`), special tokens, end-of-sequence ids and chat
 * template. Encoding adds no BOS/EOS by default: chat templates write their own, and token-exact
 * multi-turn prompts are concatenations that must not gain tokens in the middle.
 */
export class ModelTokenizer {
  readonly specialTokens: SpecialToken[];
  readonly vocabSize: number;
  private readonly specialIds: Set<number>;
  private longest: number | undefined;

  constructor(
    private readonly tokenizer: Tokenizer,
    readonly bosTokenId: number | null,
    readonly eosTokenIds: number[],
    readonly chatTemplate: ChatTemplate | null,
    private readonly cleanUpSpaces: boolean,
    /** tokenizer_config's `eos_token` (what transformers appends to a completion), else the first end-of-sequence id. */
    readonly eosTokenId: number | null = eosTokenIds[0] ?? null,
  ) {
    const added = [...tokenizer.get_added_tokens_decoder().values()];
    this.specialTokens = added.filter((t) => t.special).map((t) => ({ id: t.id, content: t.content }));
    this.specialIds = new Set(this.specialTokens.map((t) => t.id));
    this.vocabSize = Math.max(-1, ...tokenizer.get_vocab(true).values()) + 1;
  }

  static async load(dir: string): Promise<ModelTokenizer> {
    return ModelTokenizer.fromFiles(dir, await readTokenizerFiles(dir));
  }

  /** The tokenizer from its files' text (readTokenizerFiles); `dir` only names the files in errors. */
  static fromFiles(dir: string, files: TokenizerFiles): ModelTokenizer {
    const tokenizerFile = join(dir, 'tokenizer.json');
    const tokenizerJson = JsonObjectReader.parse(tokenizerFile, files['tokenizer.json'] ?? '');
    const configText = files['tokenizer_config.json'];
    const config =
      configText === undefined ? undefined : JsonObjectReader.parse(join(dir, 'tokenizer_config.json'), configText);
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(tokenizerJson.object, config?.object ?? {});
    } catch (error) {
      throw new ModelFileError(tokenizerFile, `cannot build a tokenizer from it (${(error as Error).message})`);
    }
    const tokenId = (key: string): number | null => resolveTokenId(tokenizer, config, key);
    const eosToken = tokenId('eos_token');
    const eosIds = [...generationEosIds(dir, files['generation_config.json']), eosToken].filter(
      (id): id is number => id !== null,
    );
    const template = chatTemplateSource(dir, files['chat_template.jinja'], config);
    const specials = Object.fromEntries(
      ['bos_token', 'eos_token', 'pad_token', 'unk_token'].flatMap((key) => {
        const id = tokenId(key);
        return id === null ? [] : [[key, tokenizer.id_to_token(id) ?? '']];
      }),
    );
    const chatTemplate = template ? new ChatTemplate(template.source, template.file, specials) : null;
    // transformers ≥ 4.45 defaults to false; tokenizers.js defaults to true, which would alter decoded text.
    const cleanUp = config?.has('clean_up_tokenization_spaces')
      ? config.boolean('clean_up_tokenization_spaces')
      : false;
    return new ModelTokenizer(
      tokenizer,
      tokenId('bos_token'),
      [...new Set(eosIds)],
      chatTemplate,
      cleanUp,
      eosToken ?? eosIds[0] ?? null,
    );
  }

  encode(text: string, options: { addSpecialTokens?: boolean } = {}): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: options.addSpecialTokens ?? false }).ids;
  }

  decode(ids: readonly number[], options: { skipSpecialTokens?: boolean } = {}): string {
    if (ids.length === 0) return ''; // tokenizers.js throws on an empty list
    return this.tokenizer.decode([...ids], {
      skip_special_tokens: options.skipSpecialTokens ?? false,
      clean_up_tokenization_spaces: this.cleanUpSpaces,
    });
  }

  tokenToId(token: string): number | undefined {
    return this.tokenizer.token_to_id(token);
  }

  idToToken(id: number): string | undefined {
    return this.tokenizer.id_to_token(id);
  }

  /**
   * The most characters one token stands for: a token's vocabulary string is at least as long as
   * the text it decodes to (byte-level and SentencePiece vocabularies write one character per byte
   * or per character), added tokens count by their content. Computed once.
   */
  get longestTokenChars(): number {
    if (this.longest === undefined) {
      let longest = 1;
      for (let id = 0; id < this.vocabSize; id++)
        longest = Math.max(longest, this.tokenizer.id_to_token(id)?.length ?? 0);
      this.longest = longest;
    }
    return this.longest;
  }

  isSpecial(id: number): boolean {
    return this.specialIds.has(id);
  }

  isEos(id: number): boolean {
    return this.eosTokenIds.includes(id);
  }

  applyChatTemplate(messages: TemplateMessage[], options: ChatTemplateOptions = {}): string {
    if (!this.chatTemplate)
      throw new Error(
        'this tokenizer has no chat template (no chat_template.jinja, no chat_template in tokenizer_config.json)',
      );
    return this.chatTemplate.render(messages, options);
  }

  encodeChat(messages: TemplateMessage[], options: ChatTemplateOptions = {}): number[] {
    return this.encode(this.applyChatTemplate(messages, options));
  }
}

// tokenizer_config.json writes special tokens as a string or as an AddedToken object {content}.
function resolveTokenId(tokenizer: Tokenizer, config: JsonObjectReader | undefined, key: string): number | null {
  if (!config?.has(key)) return null;
  const value = config.raw(key);
  const content = typeof value === 'string' ? value : (value as { content?: unknown }).content;
  if (typeof content !== 'string')
    throw config.fail(key, `must be a token string or {"content": ...} (got ${describeValue(value)})`);
  const id = tokenizer.token_to_id(content);
  if (id === undefined) throw config.fail(key, `${describeValue(content)} is not in tokenizer.json's vocabulary`);
  return id;
}

function generationEosIds(dir: string, text: string | undefined): number[] {
  if (text === undefined) return [];
  const json = JsonObjectReader.parse(join(dir, 'generation_config.json'), text);
  if (!json.has('eos_token_id')) return [];
  const value = json.raw('eos_token_id');
  const ids = Array.isArray(value) ? value : [value];
  if (!ids.every((id) => Number.isInteger(id) && id >= 0))
    throw json.fail('eos_token_id', `must be a token id or a list of ids (got ${describeValue(value)})`);
  return ids as number[];
}
