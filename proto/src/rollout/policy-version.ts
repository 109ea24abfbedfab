import { GauntletError } from '../errors.js';

/** A run's adapter version N is served as `<run>@v<N>` (N = updates applied; v0 = the starting adapter). */
export function versionName(run: string, version: number): string {
  return `${run}@v${version}`;
}

export function parseVersionName(name: string): { run: string; version: number } | null {
  const match = /^(.+)@v(\d+)$/.exec(name);
  return match ? { run: match[1]!, version: Number(match[2]) } : null;
}

/**
 * Whether `served` (the names a policy server lists) holds a later version of the run that
 * `adapter` belongs to: then `adapter`'s absence means the learner moved past it, not a typo.
 */
export function laterVersionServed(adapter: string, served: readonly string[]): boolean {
  const asked = parseVersionName(adapter);
  if (!asked) return false;
  return served.some((name) => {
    const other = parseVersionName(name);
    return other !== null && other.run === asked.run && other.version > asked.version;
  });
}

/** How a retired version's failure reads, so whoever reads a failed job's reason can tell it apart. */
const RETIRED_MARK = 'policy version retired:';

/**
 * An episode asked for a policy version its server has unloaded because the learner moved on:
 * the group is stale (the learner would refuse it at admission), not failed. Nothing the policy
 * wrote caused it and nothing is wrong with the job, so it is neither a reward nor a drop.
 */
export class PolicyVersionRetiredError extends GauntletError {
  constructor(adapter: string, detail: string) {
    super(
      'NOT_FOUND',
      `${RETIRED_MARK} ${adapter} is no longer served (${detail}); its group is stale and is not trained on`,
      { adapter },
    );
  }
}

/** Whether a failed job's reason is a PolicyVersionRetiredError's (it may be wrapped in more words). */
export function isRetiredVersionReason(reason: string): boolean {
  return reason.includes(RETIRED_MARK);
}
