import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepResult } from '@gauntlet/proto';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { catalogShapes, namedShapes, serveHostileSite, type HostileShape, type HostileSite } from './hostile-policy.js';

/**
 * Nothing a policy writes may end its episode as an infrastructure failure: the trainer drops
 * those instead of scoring them, so a policy that found one could escape every bad reward. Each
 * shape below either is an action error, or runs past its deadline and ends the episode as
 * truncated (a scored `timeout`); the session is usable again after a reset.
 */
let service: EnvService;
let site: HostileSite;
beforeAll(async () => {
  site = await serveHostileSite();
  service = new EnvService({
    ...structuredClone(DEFAULTS),
    warmContexts: 1,
    maxSessions: 2,
    idleTtlMs: 0,
    allowedOrigins: [site.origin],
  });
  await service.start();
});
afterAll(async () => {
  await service?.shutdown();
  await site?.close();
});

const EVERY_ACTION = { subsets: ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'] };
const CLICK_ME = /\[(\w+)\] button 'Click Me!'/;

const reset = (session: EnvSession) =>
  service.reset(session, { task_name: 'click-test', seed: 1, action_set: EVERY_ACTION });

/** The reply's deadline: the step's own, plus room for a loaded machine. */
const answeredWithin = (shape: HostileShape) => shape.timeoutS * 1000 + 1_500;

/** Plays every shape on one session; returns what broke the rule, one line per shape. */
async function play(shapes: HostileShape[]): Promise<{ problems: string[]; outcomes: Map<string, string> }> {
  const problems: string[] = [];
  const outcomes = new Map<string, string>();
  const session = await service.openSession('inproc');
  try {
    let bid = CLICK_ME.exec((await reset(session)).observation.axtree_txt)![1]!;
    for (const shape of shapes) {
      const action = shape.action.replaceAll('BID', bid);
      const started = performance.now();
      let result: StepResult;
      try {
        result = await service.step(session, { action: { action_str: action }, timeout_s: shape.timeoutS });
      } catch (error) {
        problems.push(`${shape.name}: step threw ${(error as Error).name}: ${(error as Error).message}`);
        bid = CLICK_ME.exec((await reset(session).catch(() => undefined))?.observation.axtree_txt ?? '')?.[1] ?? bid;
        continue;
      }
      const elapsed = performance.now() - started;
      if (elapsed > answeredWithin(shape)) problems.push(`${shape.name}: answered after ${Math.round(elapsed)} ms`);
      const info = result.metadata.browsergym_info;
      outcomes.set(shape.name, info['truncated'] ? 'timeout' : result.observation.last_action_error ? 'error' : 'ok');
      if (result.done) {
        try {
          bid = CLICK_ME.exec((await reset(session)).observation.axtree_txt)![1]!;
        } catch (error) {
          problems.push(
            `${shape.name}: the reset after it threw ${(error as Error).name}: ${(error as Error).message}`,
          );
        }
      }
    }
    // Still a working environment: the task solves.
    bid = CLICK_ME.exec((await reset(session)).observation.axtree_txt)![1]!;
    expect(await service.step(session, { action: { action_str: `click('${bid}')` } })).toMatchObject({
      reward: 1,
      done: true,
    });
  } finally {
    await service.close(session, 'client');
  }
  return { problems, outcomes };
}

describe('no action string yields an infrastructure error', () => {
  it('hand-picked shapes: huge chords and texts, extreme coordinates, nesting, long waits, slow and frozen pages', async () => {
    const { problems, outcomes } = await play(namedShapes(site.origin, 'BID'));
    expect(problems).toEqual([]);
    // Chords are capped before they reach the browser: an action error, not a timeout.
    expect(outcomes.get('key chord of 5,001 keys')).toBe('error');
    expect(outcomes.get('key chord on a bid')).toBe('error');
    expect(outcomes.get('key up of a chord')).toBe('error');
    // Work that runs past its deadline is the policy's: the episode ends as truncated.
    expect(outcomes.get('the longest wait')).toBe('timeout');
    expect(outcomes.get('goto a page that never answers')).toBe('timeout');
    expect(outcomes.get('goto a page that blocks its main thread, then click')).toBe('timeout');
  });

  it('every action of the catalog with hostile arguments', async () => {
    const { problems } = await play(catalogShapes('BID'));
    expect(problems).toEqual([]);
  });

  it('a step that overran ends the episode as truncated with a TimeoutError, and later steps say to reset', async () => {
    const session = await service.openSession('inproc');
    try {
      await reset(session);
      const overran = await service.step(session, { action: { action_str: 'noop(600000)' }, timeout_s: 1 });
      expect(overran).toMatchObject({ done: true, reward: 0 });
      expect(overran.observation.error).toMatch(/^TimeoutError: /);
      expect(overran.metadata.browsergym_info).toMatchObject({ truncated: true, terminated: false });
      await expect(service.step(session, { action: { action_str: 'noop(0)' } })).rejects.toMatchObject({
        name: 'EpisodeStateError',
      });
    } finally {
      await service.close(session, 'client');
    }
  });
});
