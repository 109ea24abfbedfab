import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { TaskStatus } from '../task.js';
import { categoryOf, isChallengeType } from './challenges/index.js';
import type { GauntletOptions } from './options.js';
import type { PagePlan, PageStatus } from './page/contract.js';
import type { RunPlan } from './plan.js';
import { VIDEO_PATH } from './site.js';
import { CodeSocketServer } from './socket/code-server.js';

type AppWindow = Window & {
  gauntletApp?: { start(plan: PagePlan): void; status(): PageStatus; clearCounters(): void };
};

/**
 * One episode's run on one page: the plan, the reward options, and the best progress paid so
 * far. Reward is paid only for steps beyond that high-water mark, so a reload (which restarts
 * the page at step 1) cannot earn the same steps twice.
 */
export class GauntletRun {
  readonly runId = randomUUID();
  /** Most steps solved so far in this episode (steps skipped by start_step count as solved, unpaid). */
  best = 0;
  private bonusPaid = false;

  constructor(
    readonly plan: RunPlan,
    readonly options: GauntletOptions,
  ) {}

  get total(): number {
    return this.plan.steps.length;
  }

  /** The plan as the page gets it: WebSocket codes replaced by tickets the code server holds. */
  async pagePlan(): Promise<PagePlan> {
    const needsSocket = this.plan.steps.some((s) => s.type === 'websocket');
    const server = needsSocket ? await CodeSocketServer.get() : undefined;
    const steps = this.plan.steps.map((step) => {
      if (step.type !== 'websocket')
        return { type: step.type, title: step.title, code: step.code, params: step.params };
      const { delayMs, order } = step.params as { delayMs: number; order: string[] };
      return {
        type: step.type,
        title: step.title,
        code: '',
        params: step.params,
        socket: { url: server!.url, ticket: server!.register(step.code, delayMs, order) },
      };
    });
    return { runId: this.runId, steps, media: { videoUrl: VIDEO_PATH } };
  }

  async start(page: Page): Promise<void> {
    const plan = await this.pagePlan();
    await page.evaluate((p) => {
      const app = (window as AppWindow).gauntletApp;
      if (!app) throw new Error('the Gauntlet app did not load');
      app.start(p);
    }, plan);
  }

  static readPage(page: Page): Promise<PageStatus | null> {
    return page.evaluate(() => (window as AppWindow).gauntletApp?.status() ?? null).catch(() => null);
  }

  /** The episode starts after a fast-forward: the oracle's own slips are not the agent's. */
  static async clearPageCounters(page: Page): Promise<void> {
    await page.evaluate(() => (window as AppWindow).gauntletApp?.clearCounters());
  }

  /** Reads the page, pays newly solved steps, and reports step, type and the wrong-code flag. */
  async status(page: Page): Promise<TaskStatus> {
    const seen = await GauntletRun.readPage(page);
    if (!seen || seen.runId !== this.runId) {
      return {
        rawReward: this.best / this.total,
        done: false,
        reward: 0,
        reason: `not on this run's Gauntlet page (${page.url()})`,
        info: this.info(null),
      };
    }
    const advanced = Math.max(0, seen.solved - this.best);
    this.best += advanced;
    let reward = advanced * this.options.stepReward;
    const done = seen.view === 'done';
    if (done && !this.bonusPaid) {
      this.bonusPaid = true;
      reward += this.options.terminalBonus;
    }
    const reason = done
      ? `all ${this.total} steps solved`
      : seen.error
        ? `page error: ${seen.error}`
        : `on step ${seen.step} of ${this.total}`;
    return { rawReward: this.best / this.total, done, reward, reason, info: this.info(seen) };
  }

  info(seen: PageStatus | null): Record<string, unknown> {
    const type = seen?.type ?? '';
    return {
      step: seen?.step ?? null,
      total: this.total,
      type,
      category: isChallengeType(type) ? categoryOf(type) : '',
      solved: this.best,
      view: seen?.view ?? 'away',
      wrong_code: seen?.lastWrong ?? false,
      wrong_codes: seen?.wrongCount ?? 0,
      puzzle_failures: seen?.failCount ?? 0,
      ...(seen?.error ? { page_error: seen.error } : {}),
    };
  }
}
