import { basename } from 'node:path';
import { demonstratedActions, demonstrationText, readDemoFile, type DemonstrationView } from '@gauntlet/proto/agent';
import { UsageError } from '@gauntlet/proto/cli';

/** One demonstration read from a demo file: its task (when the line names one) and its actions in order (demonstratedActions). */
export interface DemoActions {
  task: string | null;
  actions: string[];
}

/**
 * The demonstrations in a demo file (proto's readDemoFile: a demo.jsonl, or the one beside a
 * demo.json), each as its task and actions. Every problem is a UsageError naming --demo.
 */
export async function readDemoActions(file: string): Promise<DemoActions[]> {
  return (await readDemoFile(file)).map((demo) => ({ task: demo.task, actions: demonstratedActions(demo.messages) }));
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
