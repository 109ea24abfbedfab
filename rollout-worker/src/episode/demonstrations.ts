import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { demonstratedActions, demonstrationText, type DemonstrationView } from '@gauntlet/proto/agent';
import { UsageError } from '@gauntlet/proto/cli';

/** One demonstration read from a demo file: its task (when the line names one) and its actions in order (demonstratedActions). */
export interface DemoActions {
  task: string | null;
  actions: string[];
}

/**
 * The demonstrations in a demo.jsonl (one conversation per line, as `gauntlet-agent record` and
 * `gauntlet-env collect` write them: the actions are the assistant turns), or a demo.json, whose
 * demo.jsonl beside it is read. Every problem is a UsageError naming --demo, the file and the line.
 */
export async function readDemoActions(file: string): Promise<DemoActions[]> {
  const flag = 'demo';
  const jsonl = file.endsWith('.json') ? join(dirname(file), 'demo.jsonl') : file;
  const where = jsonl === file ? file : `${file} (the demo.jsonl beside it)`;
  const text = await readFile(jsonl, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--${flag} ${where}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`, flag);
  });
  const demos: DemoActions[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const fail = (detail: string) => new UsageError(`--${flag} ${jsonl} line ${i + 1}: ${detail}`, flag);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw fail('is not JSON');
    }
    const record = value as { task?: unknown; messages?: unknown };
    if (typeof value !== 'object' || value === null || !Array.isArray(record.messages))
      throw fail('must be an object with "messages" (a conversation)');
    const turns = record.messages.flatMap((m: { role?: unknown; content?: unknown }) =>
      typeof m?.role === 'string' && typeof m.content === 'string' ? [{ role: m.role, content: m.content }] : [],
    );
    const actions = demonstratedActions(turns);
    if (actions.length === 0) throw fail('holds no action (no assistant turn)');
    demos.push({ task: typeof record.task === 'string' ? record.task : null, actions });
  });
  if (demos.length === 0) throw new UsageError(`--${flag} ${jsonl}: holds no demonstration`, flag);
  return demos;
}

/** `miniwob.login-user` and `login-user` name the same task. */
const sameTask = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

/**
 * Each task's demonstration as the policy is shown it: the first demo of that task, or the file's
 * only demo when it names no task. A task without one is refused (it would be played unshown).
 */
export function demonstrationsFor(
  tasks: readonly string[],
  demos: readonly DemoActions[],
  template: string,
  file: string,
): Record<string, DemonstrationView> {
  return Object.fromEntries(
    tasks.map((task) => {
      const demo =
        demos.find((d) => d.task !== null && sameTask(d.task, task)) ??
        (demos.length === 1 && demos[0]!.task === null ? demos[0] : undefined);
      if (!demo)
        throw new UsageError(
          `--demo ${basename(file)} has no demonstration of ${task} (it holds ${demos.map((d) => d.task ?? 'an unnamed task').join(', ')})`,
          'demo',
        );
      return [task, { text: demonstrationText(demo.actions), template }];
    }),
  );
}
