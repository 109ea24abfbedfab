import type { SiteAsset, TaskSite } from '../../browser/site.js';
import { CHALLENGES } from './challenges/index.js';
import { buildAppScript } from './page/build-app.js';
import { shellHtml } from './page/shell-html.js';
import { clockVideo } from './media/clock-video.js';
import { GAUNTLET_STEPS } from './plan.js';

export const GAUNTLET_ENTRY = '/gauntlet/';
export const VIDEO_PATH = '/gauntlet/media/clock.mp4';

/**
 * Every URL of the app serves the same shell (client-side routing decides the view, so a direct
 * load of `/gauntlet/step/7` gets the page that says it is locked), plus the script and media.
 */
export function gauntletSite(extra: ReadonlyMap<string, SiteAsset> = new Map()): TaskSite {
  const challenges = [...CHALLENGES.values()];
  const html: SiteAsset = {
    contentType: 'text/html; charset=utf-8',
    body: shellHtml(challenges.map((c) => c.css ?? '').join('\n')),
  };
  const routes = [
    GAUNTLET_ENTRY,
    '/gauntlet/complete',
    ...Array.from({ length: GAUNTLET_STEPS }, (_, i) => `/gauntlet/step/${i + 1}`),
  ];
  return new Map<string, SiteAsset>([
    ...routes.map((path) => [path, html] as const),
    ['/gauntlet/app.js', { contentType: 'text/javascript; charset=utf-8', body: buildAppScript(challenges) }],
    [VIDEO_PATH, { contentType: 'video/mp4', body: clockVideo() }],
    ...extra,
  ]);
}
