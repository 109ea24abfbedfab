import type { TrajectoryGroup } from '@gauntlet/proto/rollout';
import { parseVersionName } from '../serving/versions.js';

export type Admission =
  | { admitted: true; staleness: number }
  | { admitted: false; reason: 'stale'; staleness: number }
  | { admitted: false; reason: 'foreign'; detail: string };

/**
 * Whether a finished group may train the policy at version `current`: every turn must come from
 * this run's adapter (`<run>@v<N>`) at most `maxStaleness` versions behind (0 = strictly
 * on-policy). The oldest turn decides; a group from another run or the base model is foreign.
 */
export function admitGroup(group: TrajectoryGroup, run: string, current: number, maxStaleness: number): Admission {
  let oldest = group.policy.version ?? -1;
  const versions = [group.policy, ...group.trajectories.flatMap((t) => t.turns.map((turn) => turn.policy))];
  for (const policy of versions) {
    const named = policy.adapter === null ? null : parseVersionName(policy.adapter);
    if (!named || named.run !== run || policy.version !== named.version)
      return {
        admitted: false,
        reason: 'foreign',
        detail: `group ${group.group_id} was played by ${policy.adapter ?? policy.model}${policy.version === null ? '' : ` (version ${policy.version})`}, not by a version of run ${run}`,
      };
    oldest = Math.min(oldest, named.version);
  }
  const staleness = current - oldest;
  if (staleness < 0)
    return {
      admitted: false,
      reason: 'foreign',
      detail: `group ${group.group_id} claims version ${oldest}, newer than the current ${current}`,
    };
  return staleness <= maxStaleness ? { admitted: true, staleness } : { admitted: false, reason: 'stale', staleness };
}
