import type { EpisodeEnv } from '@gauntlet/proto/agent';
import { describe, expect, it } from 'vitest';
import { onPorts } from './in-process-envs.js';

const ports = ['a', 'b'].map((name) => ({ name }) as unknown as EpisodeEnv & { name: string });

describe('onPorts', () => {
  it('runs every job, each port one at a time', async () => {
    const done: string[] = [];
    await onPorts(ports, [1, 2, 3, 4, 5], new AbortController().signal, async (port, job) => {
      await Promise.resolve();
      done.push(`${(port as { name: string } & EpisodeEnv).name}${job}`);
    });
    expect(done.sort()).toEqual(['a1', 'a3', 'a5', 'b2', 'b4']);
  });

  it('starts no job once the signal is aborted; the one in flight finishes', async () => {
    const stop = new AbortController();
    const started: number[] = [];
    const finished: number[] = [];
    await onPorts(ports, [1, 2, 3, 4], stop.signal, async (_port, job) => {
      started.push(job);
      if (job === 1) stop.abort();
      await Promise.resolve();
      finished.push(job);
    });
    expect(started).toEqual([1]);
    expect(finished).toEqual([1]);
  });
});
