import type { BrowserContext, Page } from 'playwright-core';
import { allowSocketOrigin } from '../../browser/socket-routes.js';
import type { PageDeadline } from '../../deadline/page-deadline.js';
import { resetBidCounters } from '../../observe/mark.js';
import { TASK_ORIGIN } from '../../browser/site.js';
import type { OracleView, TaskDefinition, TaskEpisode } from '../task.js';
import type { ChallengeType } from './categories.js';
import { CHALLENGE_TYPES } from './challenges/index.js';
import { fastForward } from './fast-forward.js';
import { parseGauntletOptions } from './options.js';
import { GAUNTLET_STEPS, planRun } from './plan.js';
import { GauntletRun } from './run.js';
import { GAUNTLET_ENTRY } from './site.js';
import { CodeSocketServer } from './socket/code-server.js';
import { gauntletOracle } from './oracle/policy.js';

/** Contexts already allowed to open the code server's loopback WebSocket. */
const socketReady = new WeakSet<BrowserContext>();

/** Canvas strokes need coordinates: BrowserGym's default set plus `coord`. */
const ACTION_SUBSETS = ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'];

export const FULL_GOAL = `Complete the Gauntlet: ${GAUNTLET_STEPS} steps, each with a puzzle that reveals a 6-character code. Enter the code in the "Code" box and press "Submit code" to advance to the next step.`;

/** One step's goal; it never names the puzzle's type (recognising the puzzle is part of the task). */
export const SINGLE_GOAL = `Solve this Gauntlet step: its puzzle reveals a 6-character code. Enter the code in the "Code" box and press "Submit code".`;

/** `gauntlet` (the 30-step run) and `gauntlet:<type>` (one challenge), all on one SPA. */
export function gauntletTasks(): TaskDefinition[] {
  return [
    defineTask(
      'gauntlet',
      undefined,
      `The ${GAUNTLET_STEPS}-step Gauntlet: every challenge type at least once, codes gate each step. Options: start_step, shaping, terminal_bonus.`,
      400,
    ),
    ...CHALLENGE_TYPES.map((type) => defineTask(`gauntlet:${type}`, type, `One Gauntlet step of type ${type}.`, 40)),
  ];
}

function defineTask(
  name: string,
  only: ChallengeType | undefined,
  description: string,
  maxSteps: number,
): TaskDefinition {
  return {
    name,
    benchmark: 'gauntlet',
    description,
    maxSteps,
    defaultActionSubsets: ACTION_SUBSETS,
    // The fast-forward plays every skipped step through the browser: budget for it per step.
    setupTimeoutMs: (raw) =>
      30_000 + 2_000 * (typeof raw.start_step === 'number' ? Math.min(raw.start_step, GAUNTLET_STEPS) : 0),
    async setup(page: Page, seed: number, raw: Record<string, unknown>, deadline?: PageDeadline): Promise<TaskEpisode> {
      if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
      const plan = planRun(seed, only);
      const options = parseGauntletOptions(raw, plan.steps.length, name);
      const run = new GauntletRun(plan, options);
      await openApp(
        page,
        plan.steps.some((s) => s.type === 'websocket'),
      );
      await run.start(page);
      await resetBidCounters(page);
      if (options.startStep > 1) {
        await fastForward(page, options.startStep, deadline);
        await GauntletRun.clearPageCounters(page);
        await resetBidCounters(page);
        run.best = options.startStep - 1;
      }
      const status = await run.status(page);
      return {
        goal: only ? SINGLE_GOAL : FULL_GOAL,
        info: status.info ?? {},
        status: (current) => run.status(current),
      };
    },
    oracle: (view: OracleView) => gauntletOracle(view),
  };
}

/** Loads the app unless this page already runs it (then the run restarts in place, no reload). */
async function openApp(page: Page, needsSocket: boolean): Promise<void> {
  const context = page.context();
  if (needsSocket && !socketReady.has(context)) {
    // The code server listens on loopback; Chromium lets the (secure-treated) task origin reach it
    // only with this permission, and our WebSocket routes only once the context registered it.
    await context.grantPermissions(['local-network-access'], { origin: TASK_ORIGIN });
    allowSocketOrigin(context, (await CodeSocketServer.get()).url);
    socketReady.add(context);
  }
  const onApp = page.url().startsWith(TASK_ORIGIN + '/gauntlet/') && (await GauntletRun.readPage(page)) !== null;
  if (!onApp) await page.goto(TASK_ORIGIN + GAUNTLET_ENTRY);
}
