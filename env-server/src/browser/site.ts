/**
 * Task pages live on a virtual origin that the browser context answers from memory (no socket,
 * no DNS), so a page load costs microseconds and the allowed-origin list starts with this one.
 */
export const TASK_ORIGIN = 'http://tasks.gauntlet.test';

export interface SiteAsset {
  contentType: string;
  body: string | Uint8Array;
}

/** Path (starting with `/`) → asset. */
export type TaskSite = ReadonlyMap<string, SiteAsset>;

/**
 * A folder served on TASK_ORIGIN under `prefix` (e.g. `/miniwob-plusplus/`): real MiniWoB++ pages
 * from the operator's disk, read per request, never outside `root`.
 */
export interface SiteMount {
  prefix: string;
  root: string;
}

/** Viewport (CSS px) and device scale factor a task's pages are made for. */
export interface TaskDisplay {
  width: number;
  height: number;
  deviceScaleFactor: number;
}
