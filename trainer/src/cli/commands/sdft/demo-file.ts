import { basename, dirname, join } from 'node:path';
import { pathExists, readTextFile } from '../../../model/files.js';
import { describeValue, isPlainObject } from '../../../model/json-reader.js';
import { DataFileError, parseJsonLines, parseMessages } from '../../../train/sft-data.js';
import type { Demonstration } from '../../../train/sdft/demo-states.js';
import { UsageError } from '../../command.js';

/** The SFT file `gauntlet-agent record` writes beside demo.json: the same demonstration as a chat. */
const DEMO_JSONL = 'demo.jsonl';

/**
 * The demonstrations in --demo: a demo.jsonl (one conversation per line, system prompt, then per
 * action the observation and the action, as `record` and `collect` write them), or a demo.json,
 * whose demo.jsonl beside it is read (record writes both; the chat form is what a policy sees).
 */
export async function readDemonstrations(file: string): Promise<Demonstration[]> {
  let jsonl = file;
  if (file.endsWith('.json')) {
    jsonl = join(dirname(file), DEMO_JSONL);
    if (!(await pathExists(jsonl)))
      throw new UsageError(
        `sdft: --demo ${file}: no ${DEMO_JSONL} beside it (gauntlet-agent record writes both); pass a demo.jsonl`,
        'demo',
      );
  }
  const text = await readTextFile(jsonl).catch((error: Error) => {
    throw new UsageError(`sdft: --demo ${jsonl}: ${error.message}`, 'demo');
  });
  return parseJsonLines(jsonl, text, (line, value) => {
    const fail = (field: string | undefined, detail: string) =>
      new DataFileError(jsonl, line, field === undefined ? detail : `${field} ${detail}`, field);
    if (!isPlainObject(value))
      throw fail(undefined, `must be a JSON object with "messages" (got ${describeValue(value)})`);
    const messages = parseMessages(value['messages'], 'messages', fail);
    if (!messages.some((m, i) => m.role === 'user' && messages[i + 1]?.role === 'assistant'))
      throw fail('messages', 'hold no observation (user turn) followed by an action (assistant turn)');
    const task = typeof value['task'] === 'string' ? value['task'] : basename(jsonl);
    return { task, messages };
  });
}
