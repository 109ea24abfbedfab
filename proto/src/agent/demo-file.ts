import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../cli/usage-error.js';

/** The chat file `gauntlet-agent record` writes beside demo.json: the same demonstration as a conversation. */
export const DEMO_JSONL = 'demo.jsonl';

/** One demonstration of a demo file: a conversation, the task its line names (or null), and where it was read. */
export interface DemoConversation {
  task: string | null;
  messages: { role: string; content: string }[];
  /** The demo.jsonl read (beside the demo.json given, or the file itself). */
  file: string;
  line: number;
}

/**
 * The demonstrations in a demo.jsonl (one conversation per line, as `gauntlet-agent record` and
 * `gauntlet-env collect` write them: system prompt, then per action the observation as a user
 * turn and the action as an assistant turn), or a demo.json, whose demo.jsonl beside it is read.
 * Every problem is a UsageError naming `flag`, the file and the line: a line that is not a
 * conversation, one with no observation followed by an action, a file with no line at all.
 */
export async function readDemoFile(file: string, flag = 'demo'): Promise<DemoConversation[]> {
  const jsonl = file.endsWith('.json') ? join(dirname(file), DEMO_JSONL) : file;
  const text = await readFile(jsonl, 'utf8').catch((error: NodeJS.ErrnoException) => {
    const missing = error.code === 'ENOENT';
    if (missing && jsonl !== file)
      throw new UsageError(
        `--${flag} ${file}: no ${DEMO_JSONL} beside it (gauntlet-agent record writes both); pass a ${DEMO_JSONL}`,
        flag,
      );
    throw new UsageError(`--${flag} ${jsonl}: ${missing ? 'no such file' : error.message}`, flag);
  });
  const demos: DemoConversation[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const fail = (detail: string) => new UsageError(`--${flag} ${jsonl} line ${i + 1}: ${detail}`, flag);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw fail('is not JSON');
    }
    const record = value as { task?: unknown; messages?: unknown };
    if (typeof value !== 'object' || value === null || !Array.isArray(record.messages))
      throw fail('must be an object with "messages" (a conversation)');
    const messages = record.messages.map((m: { role?: unknown; content?: unknown }, k) => {
      if (typeof m?.role !== 'string' || typeof m.content !== 'string')
        throw fail(`messages[${k}] must have a string "role" and "content"`);
      return { role: m.role, content: m.content };
    });
    if (!messages.some((m, k) => m.role === 'user' && messages[k + 1]?.role === 'assistant'))
      throw fail('holds no action: no observation (user turn) followed by an action (assistant turn)');
    demos.push({ task: typeof record.task === 'string' ? record.task : null, messages, file: jsonl, line: i + 1 });
  });
  if (demos.length === 0) throw new UsageError(`--${flag} ${jsonl}: holds no demonstration`, flag);
  return demos;
}
