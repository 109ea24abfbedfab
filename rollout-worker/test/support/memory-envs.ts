import { CapacityError, type StepResult } from '@gauntlet/proto';
import type { EnvClient } from '@gauntlet/proto/client';
import { EnvPool, type EnvPoolOptions } from '../../src/env/env-pool.js';

// In-memory env clients for the env pool's unit tests: each URL behaves as told, and a server of
// `slots(max)` refuses a session past its slots as a real one does (CapacityError).
const OK = { done: false } as StepResult;

export interface Behaviour {
  open?: () => Promise<void>;
  reset?: () => Promise<StepResult>;
  step?: () => Promise<StepResult>;
  slots?: Slots;
}

export type Slots = ReturnType<typeof slots>;

/** A server with `max` slots: open takes one (CapacityError when none is left), close frees it. */
export function slots(max: number) {
  let used = 0;
  return {
    get used() {
      return used;
    },
    open: async () => {
      if (used >= max) throw new CapacityError(used, max);
      used += 1;
    },
    close: () => void (used -= 1),
  };
}

/** An EnvPool on these URLs, with what it connected (`made`) and closed, by URL. */
export function pool(
  behaviour: Record<string, Behaviour>,
  healthy: Record<string, boolean> = {},
  options: Partial<EnvPoolOptions> = {},
) {
  const made: string[] = [];
  const closed: string[] = [];
  const envs = new EnvPool(Object.keys(behaviour), {
    probe: async (url) => healthy[url] ?? true,
    connect: (url) => {
      made.push(url);
      const b = behaviour[url]!;
      let opened = false;
      return {
        transport: 'grpc',
        target: url,
        sessionId: undefined,
        open: async () => {
          if (opened) return;
          await (b.open ?? b.slots?.open)?.();
          opened = true;
        },
        reset: b.reset ?? (async () => OK),
        step: b.step ?? (async () => OK),
        state: () => Promise.reject(new Error('unused')),
        record: () => Promise.reject(new Error('unused')),
        close: async () => {
          if (opened) b.slots?.close();
          closed.push(url);
        },
      } satisfies EnvClient;
    },
    ...options,
  });
  return { envs, made, closed };
}
