import { readFileSync, readdirSync } from 'node:fs';

/** Direct children of this Node process (Linux /proc); empty elsewhere. */
export function childPids(parent = process.pid): Set<number> {
  const found = new Set<number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) found.add(Number(entry));
    } catch {
      // The process exited while we looked.
    }
  }
  return found;
}
