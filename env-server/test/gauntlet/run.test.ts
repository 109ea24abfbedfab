import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '@gauntlet/proto';
import type { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { CHALLENGE_TYPES } from '../../src/tasks/gauntlet/challenges/index.js';
import { planRun } from '../../src/tasks/gauntlet/plan.js';
import { CodeSocketServer } from '../../src/tasks/gauntlet/socket/code-server.js';
import { observationShows, openEnv, oracleView, ORACLE_OBSERVATION, solveEpisode, taskInfo } from './support.js';

let service: EnvService;
let session: EnvSession;
beforeAll(async () => {
  ({ service, session } = await openEnv());
});
afterAll(() => service.shutdown());

const reset = (
  task: string,
  seed: number,
  options: Record<string, unknown> = {},
  observation: object = ORACLE_OBSERVATION,
) => service.reset(session, { task_name: task, seed, options, observation });
const step = (action: string) => service.step(session, { action: { action_str: action } });
const bidOf = (axtree: string, role: string, name: string) =>
  new RegExp(`\\[(\\w+)\\] ${role} '${name}'`).exec(axtree)?.[1];

describe('gauntlet tasks', () => {
  it('registers the full run and one task per challenge type', () => {
    expect(service.registry.names().filter((n) => n.startsWith('gauntlet.'))).toHaveLength(1 + CHALLENGE_TYPES.length);
    expect(service.registry.resolve('gauntlet').maxSteps).toBeGreaterThan(100);
    expect(service.registry.resolve('gauntlet:websocket').name).toBe('gauntlet:websocket');
  });

  it('same seed, same page; another seed, another run', async () => {
    const first = await reset('gauntlet', 42, {}, { axtree: true, pruned_html: true });
    const again = await reset('gauntlet', 42, {}, { axtree: true, pruned_html: true });
    expect(again.observation.axtree_txt).toBe(first.observation.axtree_txt);
    expect(again.observation.pruned_html).toBe(first.observation.pruned_html);
    expect(taskInfo(again)).toEqual(taskInfo(first));
    expect(taskInfo(first)).toMatchObject({
      step: 1,
      total: 30,
      type: planRun(42).steps[0]!.type,
      solved: 0,
      wrong_code: false,
    });
    const other = planRun(43);
    expect(other.steps.map((s) => s.type)).not.toEqual(planRun(42).steps.map((s) => s.type));
  });

  it('rejects a wrong code visibly, keeps the step, then accepts the right one', async () => {
    const opened = await reset('gauntlet:encrypted', 5);
    const box = bidOf(opened.observation.axtree_txt, 'textbox', 'Code')!;
    const submit = bidOf(opened.observation.axtree_txt, 'button', 'Submit code')!;
    const wrong = await step(`fill('${box}', 'WRONG1')\nclick('${submit}')`);
    expect(wrong.reward).toBe(0);
    expect(wrong.done).toBe(false);
    expect(taskInfo(wrong)).toMatchObject({ step: 1, wrong_code: true, wrong_codes: 1, solved: 0 });
    expect(wrong.observation.axtree_txt).toMatch(/\] alert '', .*\n\t+StaticText '"WRONG1" is not the code for step 1/);
    const code = planRun(5, 'encrypted').steps[0]!.code;
    const right = await step(`fill('${box}', '${code.toLowerCase()}')\nclick('${submit}')`);
    expect(right.reward).toBe(1);
    expect(right.done).toBe(true);
    expect(taskInfo(right)).toMatchObject({ wrong_code: false, wrong_codes: 1, solved: 1, view: 'done' });
  });

  it('start_step lands on that step with the planned type, pays nothing for the skipped steps, then pays per step', async () => {
    const landed = await reset('gauntlet', 11, { start_step: 7 });
    const plan = planRun(11);
    expect(taskInfo(landed)).toMatchObject({
      step: 7,
      type: plan.steps[6]!.type,
      solved: 6,
      wrong_codes: 0,
      puzzle_failures: 0,
    });
    expect(landed.observation.axtree_txt).toContain(`Step 7 of 30:`);
    expect(landed.observation.url).toMatch(/\/gauntlet\/step\/7$/);
    expect(landed.reward).toBe(0);
    const policy = service.registry.resolve('gauntlet');
    let result = landed;
    while (taskInfo(result)['step'] === 7) result = await step(policy.oracle(oracleView(result)));
    expect(result.reward).toBe(1);
    expect(taskInfo(result)).toMatchObject({ step: 8, type: plan.steps[7]!.type, solved: 7 });
    expect(service.state(session).cum_reward).toBe(1);
  });

  it("finishes a run at step 30 with the terminal bonus, never showing a later step's code early", async () => {
    const plan = planRun(8);
    const episode = await solveEpisode(service, session, 'gauntlet', 8, { start_step: 29, terminal_bonus: 5 });
    for (const seen of episode.seen) {
      const at = taskInfo(seen)['step'] as number;
      for (const later of plan.steps.slice(at)) expect(observationShows(seen, later.code), `step ${at}`).toBe(false);
    }
    expect(episode.last.done).toBe(true);
    expect(episode.last.reward).toBe(6);
    expect(taskInfo(episode.last)).toMatchObject({ view: 'done', solved: 30 });
    expect(service.state(session).cum_reward).toBe(7);
  });

  it('progress shaping pays 1/30 per solved step', async () => {
    const episode = await solveEpisode(service, session, 'gauntlet:slider', 3);
    expect(episode.last.reward).toBe(1);
    const policy = service.registry.resolve('gauntlet');
    let result = await reset('gauntlet', 3, { shaping: 'progress' });
    while (taskInfo(result)['step'] === 1) result = await step(policy.oracle(oracleView(result)));
    expect(result.reward).toBeCloseTo(1 / 30);
  });

  it('a direct URL to a later step is locked and sends the agent back to step 1; back/forward never change the step', async () => {
    const policy = service.registry.resolve('gauntlet');
    let result = await reset('gauntlet', 21);
    while (taskInfo(result)['step'] === 1) result = await step(policy.oracle(oracleView(result)));
    expect(result.observation.url).toMatch(/\/gauntlet\/step\/2$/);
    const back = await step('go_back()');
    expect(taskInfo(back)).toMatchObject({ step: 2, solved: 1 });
    expect(back.observation.url).toMatch(/\/gauntlet\/step\/2$/);
    const direct = await step(`goto('http://tasks.gauntlet.test/gauntlet/step/3')`);
    expect(taskInfo(direct)).toMatchObject({ view: 'locked', solved: 1 });
    expect(direct.observation.axtree_txt).toContain('Step 3 cannot be opened directly');
    const restarted = await step(policy.oracle(oracleView(direct)));
    expect(taskInfo(restarted)).toMatchObject({ view: 'step', step: 1, type: planRun(21).steps[0]!.type });
    // Solving step 1 again earns nothing: reward is paid once per step reached.
    result = restarted;
    while (taskInfo(result)['step'] === 1) result = await step(policy.oracle(oracleView(result)));
    expect(result.reward).toBe(0);
    expect(service.state(session).cum_reward).toBe(1);
  });

  it('the websocket step talks to the real code server over a real socket', async () => {
    const server = await CodeSocketServer.get();
    const before = server.connections;
    const episode = await solveEpisode(service, session, 'gauntlet:websocket', 9);
    expect(episode.last.reward).toBe(1);
    expect(server.connections).toBe(before + 1);
  });

  it.each([
    [{ start_step: 0 }, /options.start_step: must be between 1 and 30 \(got 0\)/],
    [{ start_step: 31 }, /must be between 1 and 30 \(got 31\)/],
    [{ start_step: 2.5 }, /must be an integer step number \(got 2.5\)/],
    [{ start_step: '3' }, /must be an integer step number \(got "3"\)/],
    [{ shaping: 'linear' }, /options.shaping: must be "step" .* or "progress"/],
    [{ terminal_bonus: -1 }, /options.terminal_bonus: must be a number >= 0/],
    [
      { startStep: 3 },
      /options.startStep: unknown option for gauntlet; known options: start_step, shaping, terminal_bonus/,
    ],
  ])('rejects reset options %j with a clear message', async (options, message) => {
    const failure = reset('gauntlet', 1, options);
    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toThrow(message);
  });

  it('rejects start_step on a single-challenge task and unknown challenge types', async () => {
    await expect(reset('gauntlet:timer', 1, { start_step: 2 })).rejects.toThrow(
      /gauntlet:timer has a single step; start_step applies to the full "gauntlet" task/,
    );
    await expect(reset('gauntlet:teleport', 1)).rejects.toThrow(/Unknown task "gauntlet:teleport"/);
  });
});
