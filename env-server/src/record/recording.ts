import { EpisodeStateError, type RecordedStep, type RecordReply, type StepResult } from '@gauntlet/proto';
import { actionFor } from './record-actions.js';
import { isGoto } from './outside-navigation.js';
import { INTERCEPTED, type PageInput, type PlayingInput } from './record-in-page.js';

/** How the session turns one recorded action into its outcome (task status, next observation). */
/** `played`: the input the page stopped, which the env plays now; absent when the page already acted. */
export type PlayRecorded = (action: string, played?: PlayingInput) => Promise<StepResult>;

/** What the browser itself did to the page since the last look (see HistoryWatch), and its release. */
export interface BrowserNavigations {
  changes(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * One recording episode: the person's inputs arrive from the page (in order), each becomes a
 * BrowserGym action whose outcome the session computes, and the steps wait here until the client
 * fetches them. Each step carries the observation it was taken on: the reset's for the first,
 * then the one computed after the previous action.
 */
export class Recording {
  private readonly ready: RecordedStep[] = [];
  private readonly waiters = new Set<() => void>();
  private chain: Promise<void> = Promise.resolve();
  private index = 0;
  private ended = false;
  private failure: Error | undefined;

  constructor(
    private before: StepResult,
    private readonly startedAt: number,
    private readonly play: PlayRecorded,
    private readonly navigations?: BrowserNavigations,
  ) {}

  /** An input reported by the page's recorder (untrusted data: anything it cannot map is dropped). */
  onInput(input: unknown): void {
    if (this.ended || !input || typeof input !== 'object') return;
    const action = actionFor(input as PageInput);
    if (!action) return;
    const { kind, bid, key } = input as PageInput;
    const played = INTERCEPTED.has(kind) ? ({ kind, bid, key } as PlayingInput) : undefined;
    const at = (performance.now() - this.startedAt) / 1000;
    this.chain = this.chain.then(() => this.take(action, played, at));
  }

  /**
   * The main frame navigated. Queued behind the inputs before it: a navigation the env's step
   * made is absorbed by that step's look at the history, so only what the person did in the
   * browser itself (address bar, back/forward) is left to record here, with no input of its own.
   */
  onNavigated(): void {
    const navigations = this.navigations;
    if (this.ended || !navigations) return;
    const at = (performance.now() - this.startedAt) / 1000;
    this.chain = this.chain.then(async () => {
      const actions = await navigations.changes().catch(() => []);
      for (const action of actions) await this.take(action, undefined, at);
    });
  }

  /** The next recorded step, waiting up to `waitMs` (or until `cancel`) for one. */
  async next(waitMs: number, cancel?: AbortSignal): Promise<RecordReply> {
    if (this.ready.length === 0 && !this.ended && !cancel?.aborted)
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          cancel?.removeEventListener('abort', done);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, waitMs);
        cancel?.addEventListener('abort', done, { once: true });
        this.waiters.add(done);
      });
    const step = this.ready.shift() ?? null;
    if (!step && this.failure) throw this.failure;
    return { step, recording: !(this.ended && this.ready.length === 0) };
  }

  /** The client or a new reset ended it: inputs from now on are not recorded. */
  stop(): void {
    this.end();
    this.wake();
  }

  private end(): void {
    if (!this.ended) void this.navigations?.close();
    this.ended = true;
  }

  private async take(action: string, played: PlayingInput | undefined, at: number): Promise<void> {
    if (this.ended) return;
    let result: StepResult;
    try {
      result = await this.play(action, played);
    } catch (error) {
      // The episode cannot go on (browser lost, episode over): the client hears why on its next fetch.
      this.failure = error instanceof Error ? error : new EpisodeStateError(String(error));
      this.stop();
      return;
    }
    // What this step did to the history is its own (a played click that followed a link, a page
    // script's history.back()). Looked at before the step is handed out: once the client shows
    // it, the person may navigate again. A URL typed meanwhile is still the person's: no page
    // makes an address-bar entry.
    const typed = ((await this.navigations?.changes().catch(() => [])) ?? []).filter(isGoto);
    this.ready.push({
      index: this.index++,
      action,
      before: this.before,
      reward: result.reward ?? 0,
      done: result.done,
      wall_time_s: at,
    });
    this.before = result;
    if (result.done) this.end();
    this.wake();
    for (const goto of typed) await this.take(goto, undefined, (performance.now() - this.startedAt) / 1000);
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
