import { fetchTaskNames, type TaskListOptions } from '../client/task-list.js';
import { closestName } from './closest.js';
import { UsageError } from './usage-error.js';

/** What checkTaskNames found: every name served, or why nothing could be checked. */
export type TaskNameCheck = { checked: true; served: number } | { checked: false; reason: string };

export interface TaskNameCheckOptions extends TaskListOptions {
  /** The flag the names came from, for the message (default `task`). */
  flag?: string;
  /** Stand-in for fetchTaskNames in unit tests. */
  fetchNames?: typeof fetchTaskNames;
}

/**
 * Checks task names (as users write them: `click-test`, `miniwob.click-test`,
 * `browsergym/miniwob.click-test`) against the task lists of the env servers at `envUrls`, so a
 * typo fails at start instead of as dropped groups. A name no answering server serves throws a
 * UsageError (exit 2) with the closest names. When no server answers (not started yet, or gRPC
 * only, which has no task list) nothing is checked: the reason comes back and the caller goes
 * on as before, so the check never makes a start-up depend on the env being up first.
 */
export async function checkTaskNames(
  names: readonly string[],
  envUrls: readonly string[],
  options: TaskNameCheckOptions = {},
): Promise<TaskNameCheck> {
  const fetchNames = options.fetchNames ?? fetchTaskNames;
  const served = new Set<string>();
  const skipped: string[] = [];
  let answered = 0;
  await Promise.all(
    [...new Set(envUrls)].map(async (url) => {
      try {
        const list = await fetchNames(url, options);
        if (!list) return void skipped.push(`${url}: gRPC has no task list`);
        answered += 1;
        for (const name of list) served.add(name);
      } catch (error) {
        skipped.push(`${url}: ${reason(error)}`);
      }
    }),
  );
  if (answered === 0) return { checked: false, reason: skipped.length ? skipped.join('; ') : 'no env server given' };
  const full = [...served].sort();
  const bare = full.map((name) => name.slice(name.indexOf('.') + 1));
  const unknown = names.filter((name) => {
    const cleaned = name.trim().replace(/^browsergym\//, '');
    return !served.has(cleaned) && !bare.includes(cleaned);
  });
  if (unknown.length === 0) return { checked: true, served: full.length };
  const flag = options.flag ?? 'task';
  const described = unknown.map((name) => {
    const cleaned = name.trim().replace(/^browsergym\//, '');
    const guess = closestName(cleaned, cleaned.includes('.') ? full : [...new Set(bare)]);
    return `${JSON.stringify(name)}${guess ? ` (did you mean ${guess}?)` : ''}`;
  });
  throw new UsageError(
    `--${flag} ${described.join(', ')}: not served by the env servers (${full.length} tasks; list them with GET /tasks on ${envUrls[0]})`,
    flag,
  );
}

function reason(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'no answer in time';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}
