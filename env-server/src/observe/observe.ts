import type { Page } from 'playwright-core';
import { ObservationOptions, type ElementProperties, type EncodedScreenshot } from '@gauntlet/proto';
import { formatAXTree, type AXTreeExtras } from './axtree.js';
import { captureTree, fetchMainAXNodes, type CapturedTree } from './axtree-fetch.js';
import { prunedHtml } from './html.js';
import { markPage } from './mark.js';
import { screenshotEncoded, screenshotRgb } from './screenshot.js';
import { PartClock } from './part-clock.js';
import { PageDeadline } from '../deadline/page-deadline.js';

export interface ObserveOptions extends Partial<ObservationOptions> {
  /** BrowserGym's optional AXTree extras (visible, clickable, box, center, som); all off by default. */
  axtreeExtras?: AXTreeExtras;
  /** JPEG quality for `screenshot: 'jpeg'` (default 80). */
  jpegQuality?: number;
  /** Stops waiting (rejects with its reason) when the step's deadline passes or the step is cancelled. */
  deadline?: PageDeadline;
}

export interface PageObservation {
  axtree_txt: string;
  pruned_html: string;
  extra_element_properties: Record<string, ElementProperties>;
  focused_element_bid: string;
  /** OpenEnv's `int[H][W][3]`, only with `screenshot: 'rgb'`. */
  screenshot: number[][][] | null;
  screenshot_encoded?: EncodedScreenshot;
  url: string;
  title: string;
  /**
   * Milliseconds: `mark` (which also serializes each frame's HTML when pruned_html is on), then
   * the parts finished after it (`axtree` — its main-frame fetch overlaps marking and is not
   * counted —, `snapshot` when only clickability needed it, `pruned_html` for joining the frames'
   * HTML), `screenshot` (runs alongside everything) and `total`.
   */
  timings: Record<string, number>;
}

const DEFAULTS = ObservationOptions.parse({});

/**
 * Marks every frame (serializing its pruned HTML in the same evaluate when asked), then computes
 * only the other parts asked for, all at once: the AX tree and DOM snapshot over CDP, and the
 * screenshot (which waits on the compositor, not on marking, so it starts right away).
 */
export async function observePage(page: Page, options: ObserveOptions = {}): Promise<PageObservation> {
  const deadline = options.deadline ?? new PageDeadline();
  for (let attempt = 1; ; attempt++) {
    try {
      return await observeOnce(page, options, deadline);
    } catch (error) {
      // A navigation that lands mid-observation destroys the documents being read. The new page
      // is what the agent should see: let it parse, then read it again rather than fail the step.
      if (attempt === 3 || !NAVIGATED.test(String(error)) || page.isClosed() || deadline.aborted) throw error;
      await deadline.race(page.waitForLoadState('domcontentloaded'));
    }
  }
}

const NAVIGATED =
  /Execution context was destroyed|Frame was detached|frame got detached|Cannot find context with specified id/;

async function observeOnce(page: Page, options: ObserveOptions, deadline: PageDeadline): Promise<PageObservation> {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const opts: ObserveOptions & ObservationOptions = { ...DEFAULTS, ...defined };
  const extras = opts.axtreeExtras ?? {};
  const wantsExtras = Boolean(extras.visible || extras.clickable || extras.boundingBox || extras.center || extras.som);
  const needProperties = opts.extra_properties || (opts.axtree && wantsExtras);
  deadline.throwIfAborted();
  const clock = new PartClock();

  const format = opts.screenshot;
  const shot =
    format === 'none'
      ? undefined
      : clock.time<number[][][] | EncodedScreenshot>('screenshot', () =>
          format === 'rgb' ? screenshotRgb(page) : screenshotEncoded(page, format, opts.jpegQuality),
        );
  // The main frame's AX tree does not depend on bids: fetch it while marking runs.
  const mainAX = opts.axtree ? fetchMainAXNodes(page) : undefined;
  for (const early of [shot, mainAX]) early?.catch(() => undefined); // awaited below, unless marking fails first
  const marks = await deadline.race(
    clock.time('mark', () => markPage(page, { properties: needProperties, html: opts.pruned_html })),
  );

  const [tree, html, image] = await deadline.race(
    Promise.all([
      opts.axtree || needProperties
        ? clock.time(opts.axtree ? 'axtree' : 'snapshot', () => captureTree(page, marks, mainAX))
        : undefined,
      opts.pruned_html ? clock.time('pruned_html', () => prunedHtml(marks)) : undefined,
      shot,
    ]),
  );
  addChromiumClickable(marks.properties, tree);
  const root = tree?.root;
  const axtreeText = root ? clock.add('axtree', () => formatAXTree(root, marks.properties, extras)) : '';

  return {
    axtree_txt: axtreeText,
    pruned_html: html ?? '',
    extra_element_properties: opts.extra_properties ? marks.properties : {},
    focused_element_bid: marks.focusedBid,
    screenshot: Array.isArray(image) ? image : null,
    ...(image && !Array.isArray(image) ? { screenshot_encoded: image } : {}),
    url: page.url(),
    title: marks.title,
    timings: clock.done(),
  };
}

/** In-page heuristics miss listeners added with addEventListener; Chromium's snapshot knows them. */
function addChromiumClickable(properties: Record<string, ElementProperties>, tree: CapturedTree | undefined): void {
  for (const bid of tree?.clickable ?? []) {
    const props = properties[bid];
    if (props) props.clickable = true;
  }
}
