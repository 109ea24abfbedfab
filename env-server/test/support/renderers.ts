import { readFileSync, readdirSync } from 'node:fs';

/** The Chromium browser process a server process launched (the one Playwright talks to over a pipe). */
export function browserPidOf(serverPid: number): number | undefined {
  const parents = processParents();
  return [...parents.keys()].find(
    (pid) => parents.get(pid) === serverPid && commandLine(pid).includes('--remote-debugging-pipe'),
  );
}

/** Chromium's renderer processes under `browserPid` (Linux /proc): children of its zygote, not of the browser itself. */
export function rendererPids(browserPid: number): number[] {
  const parents = processParents();
  const descendsFromBrowser = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at))
      if (at === browserPid) return true;
    return false;
  };
  return [...parents.keys()].filter((pid) => descendsFromBrowser(pid) && commandLine(pid).includes('--type=renderer'));
}

/** SIGKILLs every renderer of the browser (a renderer crash, as an OOM kill would cause); returns how many. */
export function killRenderers(browserPid: number): number {
  const pids = rendererPids(browserPid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids.length;
}

/** pid → parent pid for every process (Linux /proc). */
function processParents(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process exited while we looked.
    }
  }
  return parents;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
