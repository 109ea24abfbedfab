import type { Queue } from 'bullmq';

/**
 * Why a group was dropped, given its own failed reason: when that is BullMQ's "child <key>
 * failed" (all it records on a parent), the failure of that episode, else the reason itself.
 */
export async function groupDropReason(own: string, episodes: Queue): Promise<string> {
  const episodeKey = `${episodes.qualifiedName}:`;
  const child = /^child (\S+) failed$/.exec(own)?.[1];
  if (!child?.startsWith(episodeKey)) return own || 'no reason recorded';
  return (await episodes.getJob(child.slice(episodeKey.length)))?.failedReason || own;
}
