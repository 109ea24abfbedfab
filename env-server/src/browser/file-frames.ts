import type { BrowserContext, Frame, Page } from 'playwright-core';
import { recordNavigationRefusal, trackFrameCheck } from './navigation-guard.js';

const REFUSAL = 'Navigation to file: URLs is blocked';

/**
 * Turns every frame of `context` whose source is a file: URL into an empty one, and reports it.
 *
 * Why: Chromium refuses to load the file into a page that is not itself a file, but the frame
 * then never gets a document Playwright can evaluate in, and every observation that visits it
 * waits until the step's deadline. Such a frame is found when it is attached (its owner's `src`
 * is set by then); a frame that already has a document and is sent to file: keeps that document.
 */
export function installFileFrameGuard(context: BrowserContext): void {
  const watch = (page: Page) =>
    page.on('frameattached', (frame) => trackFrameCheck(context, blankIfFile(context, frame)));
  context.pages().forEach(watch);
  context.on('page', watch);
}

async function blankIfFile(context: BrowserContext, frame: Frame): Promise<void> {
  const owner = await frame.frameElement().catch(() => undefined);
  if (!owner) return;
  const replaced = await owner
    .evaluate((element) => {
      const source = (element as HTMLIFrameElement).src ?? '';
      if (!/^\s*file:/i.test(source)) return false;
      (element as HTMLIFrameElement).src = 'about:blank';
      return true;
    })
    .catch(() => false);
  await owner.dispose().catch(() => undefined);
  if (replaced) recordNavigationRefusal(context, REFUSAL);
}
