import { DpoRecord } from '@gauntlet/proto';
import type { TemplateMessage } from '../../model/chat-template.js';
import { readTextFile } from '../../model/files.js';
import { describeValue, isPlainObject } from '../../model/json-reader.js';
import { DataFileError, parseJsonLines, parseMessages, type Fail, type SftLine } from '../sft-data.js';

/** One line of a preference file, parsed: the same prompt completed two ways, each as an SFT line to encode. */
export interface DpoLine {
  line: number;
  chosen: SftLine;
  rejected: SftLine;
}

export async function readDpoJsonl(file: string): Promise<DpoLine[]> {
  return parseDpoJsonl(file, await readTextFile(file));
}

/**
 * Parses the DPO records `gauntlet-env collect` writes (proto's `DpoRecord`: explicit prompt,
 * conversational) and, on top, TRL's preference formats, one pair per line:
 *   {"prompt": [messages], "chosen": [messages], "rejected": [messages]}  conversational, explicit prompt
 *   {"chosen": [messages], "rejected": [messages]}   implicit prompt: the messages both share at the start
 *   {"prompt": "…", "chosen": "…", "rejected": "…"}   plain text, no chat template
 * Assistant messages of each completion are trained. Blank lines are skipped, other keys
 * (task, seed, rejected_outcome, …) tolerated; anything else is an error naming line and field.
 */
export function parseDpoJsonl(file: string, text: string): DpoLine[] {
  return parseJsonLines(file, text, (line, value) => parseDpoLine(file, line, value));
}

function parseDpoLine(file: string, line: number, value: unknown): DpoLine {
  const fail: Fail = (field, detail) =>
    new DataFileError(file, line, field === undefined ? detail : `${field} ${detail}`, field);
  if (!isPlainObject(value))
    throw fail(undefined, `must be a JSON object with "chosen" and "rejected" (got ${describeValue(value)})`);
  // Our own records are checked by their schema in proto; other pairs field by field.
  const record = DpoRecord.safeParse(value);
  if (record.success) {
    const { prompt, chosen, rejected } = record.data;
    return chatPair(line, prompt, [chosen, rejected], fail);
  }
  const { prompt, chosen, rejected } = value;
  if (
    chosen === undefined &&
    rejected === undefined &&
    (value['messages'] !== undefined || value['completion'] !== undefined)
  )
    throw fail(
      undefined,
      'is an SFT example ("messages", or "prompt" and "completion"), not a preference pair: train it with `gauntlet-trainer sft`, or give dpo lines with "chosen" and "rejected"',
    );
  for (const [field, v] of [
    ['chosen', chosen],
    ['rejected', rejected],
  ] as const) {
    if (v === undefined)
      throw fail(undefined, `needs "chosen" and "rejected" (got keys ${describeValue(Object.keys(value))})`);
    if (typeof v !== 'string' && !Array.isArray(v))
      throw fail(field, `must be a string or a list of messages (got ${describeValue(v)})`);
  }
  if (typeof chosen === 'string' || typeof rejected === 'string') {
    for (const [field, v] of [
      ['prompt', prompt],
      ['chosen', chosen],
      ['rejected', rejected],
    ] as const)
      if (typeof v !== 'string')
        throw fail(field, `must be a string like the other fields of a text pair (got ${describeValue(v)})`);
    for (const field of ['chosen', 'rejected'] as const)
      if (value[field] === '') throw fail(field, 'is empty (nothing to compare)');
    const side = (completion: string): SftLine => ({ line, kind: 'text', prompt: prompt as string, completion });
    return { line, chosen: side(chosen as string), rejected: side(rejected as string) };
  }
  let before: TemplateMessage[];
  let sides: [TemplateMessage[], TemplateMessage[]];
  if (prompt === undefined) {
    const [c, r] = [parseMessages(chosen, 'chosen', fail), parseMessages(rejected, 'rejected', fail)];
    let shared = 0;
    while (shared < Math.min(c.length, r.length) - 1 && sameMessage(c[shared]!, r[shared]!)) shared++;
    if (shared === 0)
      throw fail(
        undefined,
        'has no "prompt" and chosen and rejected share no first message to take as one; add "prompt"',
      );
    before = c.slice(0, shared);
    sides = [c.slice(shared), r.slice(shared)];
  } else {
    if (!Array.isArray(prompt))
      throw fail('prompt', `must be a list of messages like chosen and rejected (got ${describeValue(prompt)})`);
    before = parseMessages(prompt, 'prompt', fail);
    sides = [parseMessages(chosen, 'chosen', fail), parseMessages(rejected, 'rejected', fail)];
  }
  return chatPair(line, before, sides, fail);
}

/** A conversational pair: the shared prompt, then each side's messages (their assistant turns trained). */
function chatPair(
  line: number,
  before: TemplateMessage[],
  sides: [TemplateMessage[], TemplateMessage[]],
  fail: Fail,
): DpoLine {
  if (before[0]!.role === 'assistant')
    throw fail('prompt[0]', 'is an assistant turn with nothing before it; start with a system or user message');
  const [chosenRecord, rejectedRecord] = (['chosen', 'rejected'] as const).map((field, k) => {
    const after = sides[k]!;
    if (!after.some((m) => m.role === 'assistant')) throw fail(field, 'has no assistant message to compare');
    const record: SftLine = {
      line,
      kind: 'chat',
      messages: [...before, ...after],
      trained: [...before.map(() => false), ...after.map((m) => m.role === 'assistant')],
    };
    return record;
  });
  return { line, chosen: chosenRecord!, rejected: rejectedRecord! };
}

function sameMessage(a: TemplateMessage, b: TemplateMessage): boolean {
  return a.role === b.role && a.content === b.content;
}
