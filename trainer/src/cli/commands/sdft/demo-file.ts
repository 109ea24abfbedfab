import { basename } from 'node:path';
import { readDemoFile } from '@gauntlet/proto/agent';
import { DataFileError, parseMessages } from '../../../train/sft-data.js';
import type { Demonstration } from '../../../train/sdft/demo-states.js';
import { UsageError } from '../../command.js';

/**
 * The demonstrations in --demo, read by proto's readDemoFile (a demo.jsonl, or the one beside a
 * demo.json: record writes both, and the chat form is what a policy sees), with each message's
 * role checked as sft checks it. A demo without a task is named after its file.
 */
export async function readDemonstrations(file: string): Promise<Demonstration[]> {
  const demos = await readDemoFile(file).catch((error: unknown) => {
    if (error instanceof UsageError) throw new UsageError(`sdft: ${error.message}`, 'demo');
    throw error;
  });
  return demos.map((demo) => {
    const fail = (field: string | undefined, detail: string) =>
      new DataFileError(demo.file, demo.line, field === undefined ? detail : `${field} ${detail}`, field);
    return { task: demo.task ?? basename(demo.file), messages: parseMessages(demo.messages, 'messages', fail) };
  });
}
