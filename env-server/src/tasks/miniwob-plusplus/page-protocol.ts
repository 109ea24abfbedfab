/**
 * What runs inside a MiniWoB++ page, as real functions handed to `page.evaluate` (each must not
 * reference anything outside its own body). They speak MiniWoB's own protocol: the `core`
 * object, `Math.seedrandom` and the `WOB_*` globals every task page shares.
 */

export interface StartArgs {
  pageSeed: number;
  maxTimeMs: number;
}

/** The page state BrowserGym reads after every step, under the names it reports them. */
export interface WobState {
  REWARD_GLOBAL: number;
  RAW_REWARD_GLOBAL: number;
  REWARD_REASON: string | null;
  DONE_GLOBAL: boolean;
  EPISODE_ID: number;
  TASK_READY: boolean;
}

/**
 * Removes the human display the way BrowserGym does, then starts the episode as it does:
 * the timer is cleared, the click visualiser unhooked, the goal (`#query`) emptied and the
 * reward display, click canvas and START cover detached. `getUtterance`, `startEpisodeReal` and
 * `endEpisode` put the display back while they run (so the goal is read from `#query` and the
 * page's own bookkeeping finds its elements) and take it away again after.
 */
export function startEpisodeInPage({ pageSeed, maxTimeMs }: StartArgs): void {
  type Core = Record<string, unknown> & {
    startEpisodeReal(): void;
    endEpisode(reward: number, timeProportional?: boolean, reason?: string): void;
    getUtterance(): unknown;
    clearTimer?(): void;
    createDisplay?(): void;
    canvasDrawClick?: EventListener;
    EPISODE_MAX_TIME: number;
  };
  const page = window as unknown as { core?: Core; Math: Math & { seedrandom?(seed: number): void } };
  const core = page.core;
  if (!core || typeof core.startEpisodeReal !== 'function')
    throw new Error('not a MiniWoB++ task page: core.startEpisodeReal is missing');
  if (typeof page.Math.seedrandom !== 'function')
    throw new Error('not a MiniWoB++ task page: Math.seedrandom is missing');

  const displayIds = ['reward-display', 'click-canvas', 'sync-task-cover'];
  const hidden: Element[] = [];
  let queryCopy: Element | null = null;
  const remove = (): void => {
    core.clearTimer?.();
    if (core.canvasDrawClick) document.body.removeEventListener('click', core.canvasDrawClick);
    const query = document.getElementById('query');
    if (query) {
      queryCopy = query.cloneNode(true) as Element;
      query.innerHTML = '';
    }
    hidden.length = 0;
    for (const id of displayIds) {
      const element = document.getElementById(id);
      if (!element) continue;
      element.remove();
      hidden.push(element);
    }
  };
  const restore = (): void => {
    const query = document.getElementById('query');
    if (query && queryCopy) query.innerHTML = queryCopy.innerHTML;
    for (const element of hidden) document.body.appendChild(element);
    core.createDisplay?.();
  };
  const withDisplay =
    <A extends unknown[], R>(original: (...args: A) => R) =>
    (...args: A): R => {
      restore();
      try {
        return original.apply(core, args);
      } finally {
        remove();
      }
    };
  core.getUtterance = withDisplay(core.getUtterance);
  core.endEpisode = withDisplay(core.endEpisode);
  core.startEpisodeReal = withDisplay(core.startEpisodeReal);
  remove();

  page.Math.seedrandom(pageSeed);
  core.EPISODE_MAX_TIME = maxTimeMs;
  core.startEpisodeReal();
}

/** `core.getUtterance()` may answer a string or `{utterance, fields}`. */
export function readGoalInPage(): string {
  const core = (window as unknown as { core?: { getUtterance?(): unknown } }).core;
  const said = core?.getUtterance?.();
  if (typeof said === 'string') return said;
  if (said && typeof said === 'object' && typeof (said as { utterance?: unknown }).utterance === 'string')
    return (said as { utterance: string }).utterance;
  return '';
}

/** BrowserGym waits for `() => WOB_TASK_READY`: any truthy value will do. */
export function taskReadyInPage(): boolean {
  return Boolean((window as unknown as { WOB_TASK_READY?: unknown }).WOB_TASK_READY);
}

export function readStateInPage(): WobState | null {
  const w = window as unknown as Record<string, unknown>;
  if (!('WOB_DONE_GLOBAL' in w)) return null;
  return {
    REWARD_GLOBAL: Number(w['WOB_REWARD_GLOBAL'] ?? 0),
    RAW_REWARD_GLOBAL: Number(w['WOB_RAW_REWARD_GLOBAL'] ?? 0),
    REWARD_REASON: w['WOB_REWARD_REASON'] == null ? null : String(w['WOB_REWARD_REASON']),
    // BrowserGym's done is the page's WOB_DONE_GLOBAL as it is: truthy counts.
    DONE_GLOBAL: Boolean(w['WOB_DONE_GLOBAL']),
    EPISODE_ID: Number(w['WOB_EPISODE_ID'] ?? 0),
    TASK_READY: Boolean(w['WOB_TASK_READY']),
  };
}
