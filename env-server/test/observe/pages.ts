import type { Page } from 'playwright-core';

/**
 * Waits until the page has `count` frames (main included) and each has parsed and rendered its
 * body. A frame that detaches while we wait (a re-render replacing its iframe) restarts the wait.
 */
export async function waitForFrames(page: Page, count: number): Promise<void> {
  for (;;) {
    // Checking and subscribing happen in one tick, so no attach event can slip between them.
    while (page.frames().length < count) await page.waitForEvent('frameattached');
    try {
      await Promise.all(
        page
          .frames()
          .map((frame) =>
            frame.waitForFunction(
              () => document.readyState === 'complete' && (document.body?.childElementCount ?? 0) > 0,
            ),
          ),
      );
    } catch {
      continue;
    }
    if (page.frames().length === count && page.frames().every((f) => !f.isDetached())) return;
  }
}

/** Bids of `selector` matches in every frame, keyed by the bid of the frame's element ('' = main frame). */
export async function bidsInFrames(page: Page, selector: string): Promise<Record<string, (string | null)[]>> {
  const entries = await Promise.all(
    page.frames().map(async (frame) => {
      const owner = frame.parentFrame() ? await (await frame.frameElement()).getAttribute('bid') : '';
      const bids = await frame.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('bid')));
      return [owner ?? '?', bids] as const;
    }),
  );
  return Object.fromEntries(entries.filter(([, bids]) => bids.length > 0));
}
