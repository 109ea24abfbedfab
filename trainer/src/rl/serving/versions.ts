// The `<run>@v<N>` naming is shared with the workers, which tell a retired version by it.
export { parseVersionName, versionName } from '@gauntlet/proto/rollout';

/** Run names go into adapter names, group ids and Redis keys: letters, digits, "_", "-", "." only. */
export function checkRunName(run: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(run))
    throw new RangeError(
      `run name ${JSON.stringify(run)} must be 1-64 letters, digits, "_", "-" or "." (starting with a letter or digit)`,
    );
  return run;
}

/**
 * How many versions a policy server keeps loaded: the current one and every one a group may be
 * played by and still be admitted (up to `maxStaleness` behind). An episode re-run late (its
 * worker killed, Redis away) finds its version for as long as its group can be trained on; a
 * version is unloaded only once every group played by it would be refused as stale.
 */
export function versionsToKeep(maxStaleness: number): number {
  return maxStaleness + 1;
}
