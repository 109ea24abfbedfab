import { basename, join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { ValidationError } from '@gauntlet/proto';
import { ModelFileError } from './errors.js';
import { describeValue, type JsonObjectReader } from './json-reader.js';

/** A message as the model's chat template reads it: any role, and whatever extra fields the template uses (tool calls, names). */
export interface TemplateMessage {
  role: string;
  content: string;
  [extra: string]: unknown;
}

export interface ChatTemplateOptions {
  /** Append the assistant header so the model's next tokens are the reply. */
  addGenerationPrompt?: boolean;
  tools?: unknown[];
  /** More template variables (vLLM's `chat_template_kwargs`, e.g. `enable_thinking`). */
  variables?: Record<string, unknown>;
}

/** A Jinja chat template compiled once, rendered per request with the tokenizer's special tokens. */
export class ChatTemplate {
  private readonly template: Template;

  constructor(
    readonly source: string,
    readonly file: string,
    private readonly specialTokens: Record<string, string>,
  ) {
    try {
      this.template = new Template(source);
    } catch (error) {
      throw new ModelFileError(file, `chat template does not parse (${(error as Error).message})`, 'chat_template');
    }
  }

  render(messages: TemplateMessage[], options: ChatTemplateOptions = {}): string {
    try {
      return this.template.render({
        ...this.specialTokens,
        ...options.variables,
        messages,
        add_generation_prompt: options.addGenerationPrompt ?? false,
        ...(options.tools ? { tools: options.tools } : {}),
      });
    } catch (error) {
      // Templates reject bad conversations themselves (raise_exception): that is the caller's input.
      // The file's name only: servers pass this message on, and a reply names no server path.
      throw new ValidationError(
        `chat template (${basename(this.file)}) refused the messages: ${(error as Error).message}`,
      );
    }
  }
}

/**
 * The template source: `chat_template.jinja` when present (newer transformers save it there; its
 * text is `jinja`), else `chat_template` in tokenizer_config.json (a string, or a list of named templates).
 */
export function chatTemplateSource(
  dir: string,
  jinja: string | undefined,
  tokenizerConfig: JsonObjectReader | undefined,
): { source: string; file: string } | null {
  if (jinja !== undefined) return { source: jinja, file: join(dir, 'chat_template.jinja') };
  if (!tokenizerConfig?.has('chat_template')) return null;
  const value = tokenizerConfig.raw('chat_template');
  if (typeof value === 'string') return { source: value, file: tokenizerConfig.file };
  const named = Array.isArray(value) ? value.find((entry) => entry?.name === 'default') : undefined;
  if (typeof named?.template === 'string') return { source: named.template, file: tokenizerConfig.file };
  throw tokenizerConfig.fail(
    'chat_template',
    `must be a template string or a list with a "default" entry (got ${describeValue(value)})`,
  );
}
