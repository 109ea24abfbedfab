import { GauntletError, RECORD_ROLES, SftRecord } from '@gauntlet/proto';
import type { TemplateMessage } from '../model/chat-template.js';
import { readTextFile } from '../model/files.js';
import { describeValue, isPlainObject } from '../model/json-reader.js';

/** A line of an SFT data file is wrong; the message starts `file:line:` and names the field. */
export class DataFileError extends GauntletError {
  static override readonly httpStatus = 422;

  constructor(
    readonly file: string,
    readonly line: number | undefined,
    detail: string,
    readonly field?: string,
  ) {
    super('VALIDATION_ERROR', `${file}${line === undefined ? '' : `:${line}`}: ${detail}`, {
      file,
      ...(line === undefined ? {} : { line }),
      ...(field === undefined ? {} : { field }),
    });
  }
}

export const SFT_ROLES = RECORD_ROLES;

/**
 * One line of an SFT file, parsed (whatever shape it came in: see parseSftJsonl). `chat`: a conversation rendered through the model's chat template,
 * trained on the messages marked in `trained` (assistant turns). `text`: a plain prompt and
 * completion, tokenised as they are (no template), trained on the completion.
 */
export type SftLine =
  | {
      line: number;
      kind: 'chat';
      messages: TemplateMessage[];
      trained: boolean[];
      /** Where a `collect` record came from: its task (with the step type) and seed. */
      origin?: { task: string; seed: number };
    }
  | { line: number; kind: 'text'; prompt: string; completion: string };

export async function readSftJsonl(file: string): Promise<SftLine[]> {
  return parseSftJsonl(file, await readTextFile(file));
}

/**
 * Parses JSONL where each line is an SFT record as `gauntlet-env collect` writes it (proto's
 * `SftRecord`), or TRL's shapes on top: any `{"messages": [{role, content}, …]}` (train on
 * every assistant turn) or `{"prompt": …, "completion": …}` (both strings, or both message lists as TRL writes
 * conversational prompt-completion data; train on the completion). Blank lines are skipped and
 * other top-level keys (task, seed, reward, …) are tolerated; anything else wrong is an error
 * naming the line and the field.
 */
export function parseSftJsonl(file: string, text: string): SftLine[] {
  return parseJsonLines(file, text, (line, value) => parseLine(file, line, value));
}

/**
 * Each non-blank line of a JSONL file parsed as JSON and handed to `parse` with its 1-based line
 * number; a line that is not JSON, or a file with no line at all, is a DataFileError.
 */
export function parseJsonLines<T>(file: string, text: string, parse: (line: number, value: unknown) => T): T[] {
  const records: T[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new DataFileError(file, line, `is not valid JSON (${(error as Error).message})`);
    }
    records.push(parse(line, value));
  });
  if (records.length === 0)
    throw new DataFileError(file, undefined, 'holds no examples (expected one JSON object per line)');
  return records;
}

function parseLine(file: string, line: number, value: unknown): SftLine {
  const fail = (field: string | undefined, detail: string) =>
    new DataFileError(file, line, field === undefined ? detail : `${field} ${detail}`, field);
  if (!isPlainObject(value))
    throw fail(
      undefined,
      `must be a JSON object with "messages", or "prompt" and "completion" (got ${describeValue(value)})`,
    );
  const hasMessages = value['messages'] !== undefined;
  const hasPrompt = value['prompt'] !== undefined || value['completion'] !== undefined;
  if (value['chosen'] !== undefined && value['rejected'] !== undefined && value['completion'] === undefined)
    throw fail(
      undefined,
      'is a preference pair ("chosen"/"rejected"), not an SFT example: train it with `gauntlet-trainer dpo`, or give sft lines with "messages", or "prompt" and "completion"',
    );
  if (hasMessages && hasPrompt)
    throw fail(undefined, 'has both "messages" and "prompt"/"completion"; use one form per line');
  if (hasMessages) {
    // Our own records are checked by their schema in proto; other conversations field by field.
    const record = SftRecord.safeParse(value);
    const messages = record.success ? record.data.messages : parseMessages(value['messages'], 'messages', fail);
    const trained = messages.map((m) => m.role === 'assistant');
    const chat = checkedChat(line, messages, trained, 'messages', fail);
    if (!record.success) return chat;
    const { task, type, seed } = record.data;
    return { ...chat, origin: { task: type === task ? task : `${task} ${type}`, seed } };
  }
  if (!hasPrompt)
    throw fail(
      undefined,
      `needs "messages", or "prompt" and "completion" (got keys ${describeValue(Object.keys(value))})`,
    );
  const { prompt, completion } = value;
  if (typeof prompt === 'string' && typeof completion === 'string') {
    if (completion === '') throw fail('completion', 'is empty (nothing to train on)');
    return { line, kind: 'text', prompt, completion };
  }
  if (Array.isArray(prompt) && Array.isArray(completion)) {
    const before = parseMessages(prompt, 'prompt', fail);
    const after = parseMessages(completion, 'completion', fail);
    return checkedChat(
      line,
      [...before, ...after],
      [...before.map(() => false), ...after.map((m) => m.role === 'assistant')],
      'completion',
      fail,
    );
  }
  for (const [field, v] of [
    ['prompt', prompt],
    ['completion', completion],
  ] as const) {
    if (typeof v !== 'string' && !Array.isArray(v))
      throw fail(field, `must be a string or a list of messages (got ${describeValue(v)})`);
  }
  throw fail(
    'completion',
    `must be ${typeof prompt === 'string' ? 'a string' : 'a list of messages'} like prompt (got ${describeValue(completion)})`,
  );
}

/** Builds the error for the line being parsed: `field` (when given) starts the detail. */
export type Fail = (field: string | undefined, detail: string) => DataFileError;

/** A non-empty list of {role, content} messages (roles system, user, assistant); other keys ride along. */
export function parseMessages(value: unknown, field: string, fail: Fail): TemplateMessage[] {
  if (!Array.isArray(value) || value.length === 0)
    throw fail(field, `must be a non-empty list of {"role", "content"} objects (got ${describeValue(value)})`);
  return value.map((message, i) => {
    const at = `${field}[${i}]`;
    if (!isPlainObject(message))
      throw fail(at, `must be an object with "role" and "content" (got ${describeValue(message)})`);
    const { role, content } = message;
    if (typeof role !== 'string' || !(SFT_ROLES as readonly string[]).includes(role))
      throw fail(
        `${at}.role`,
        `must be one of ${SFT_ROLES.map((r) => `"${r}"`).join(', ')} (got ${describeValue(role)})`,
      );
    if (typeof content !== 'string') throw fail(`${at}.content`, `must be a string (got ${describeValue(content)})`);
    return { ...message, role, content };
  });
}

function checkedChat(
  line: number,
  messages: TemplateMessage[],
  trained: boolean[],
  field: string,
  fail: Fail,
): Extract<SftLine, { kind: 'chat' }> {
  const first = trained.indexOf(true);
  if (first < 0) throw fail(field, 'has no assistant turn to train on');
  if (first === 0)
    throw fail(`${field}[0]`, 'is an assistant turn with nothing before it; start with a system or user message');
  return { line, kind: 'chat', messages, trained };
}
