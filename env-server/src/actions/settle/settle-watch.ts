import type { BrowserContext, Frame, Page, Request } from 'playwright-core';

/**
 * Navigations started while an action ran, in any tab (a click may open a popup), each with a
 * promise that resolves once the new document (or Chromium's error page) committed or the
 * navigation ended without one (aborted, became a download, frame or page gone). Start it before
 * the action, dispose after settling.
 */
export interface NavigationWatch {
  readonly started: ReadonlyMap<Frame, Promise<void>>;
  /** When watching began (epoch ms): a navigation a document requested since then is the action's. */
  readonly since: number;
  dispose(): void;
}

export function watchNavigations(context: BrowserContext): NavigationWatch {
  const started = new Map<Frame, Promise<void>>();
  const cleanups: (() => void)[] = [];
  const onRequest = (request: Request) => {
    if (!request.isNavigationRequest()) return;
    const frame = safeFrame(request);
    if (!frame || started.has(frame)) return;
    const { ended, stop } = navigationEnd(frame);
    started.set(frame, ended);
    cleanups.push(stop);
  };
  context.on('request', onRequest);
  return {
    started,
    since: Date.now(),
    dispose() {
      context.off('request', onRequest);
      for (const stop of cleanups.splice(0)) stop();
    },
  };
}

/**
 * Resolves at the next sign of a navigation: a navigation request anywhere in the context, or a
 * frame of `page` navigating (same-document ones included, which send no request).
 */
export function nextNavigationActivity(page: Page): { happened: Promise<void>; stop: () => void } {
  const context = page.context();
  let stop = () => {};
  const happened = new Promise<void>((resolve) => {
    const onRequest = (r: Request) => r.isNavigationRequest() && finish();
    const finish = () => {
      stop();
      resolve();
    };
    stop = () => {
      context.off('request', onRequest);
      page.off('framenavigated', finish).off('close', finish);
    };
    context.on('request', onRequest);
    page.on('framenavigated', finish).on('close', finish);
  });
  return { happened, stop };
}

function navigationEnd(frame: Frame): { ended: Promise<void>; stop: () => void } {
  const page = frame.page();
  let stop = () => {};
  const ended = new Promise<void>((resolve) => {
    const onFrame = (f: Frame) => f === frame && finish();
    // A failed navigation request still commits Chromium's error page (framenavigated), except
    // when it was aborted (a download, a 204, a newer navigation): only then is nothing coming.
    const onFailed = (r: Request) =>
      r.isNavigationRequest() && safeFrame(r) === frame && r.failure()?.errorText === 'net::ERR_ABORTED' && finish();
    const finish = () => {
      stop();
      resolve();
    };
    stop = () => {
      page.off('framenavigated', onFrame).off('framedetached', onFrame).off('requestfailed', onFailed);
      page.off('download', finish).off('close', finish);
    };
    page.on('framenavigated', onFrame).on('framedetached', onFrame).on('requestfailed', onFailed);
    page.on('download', finish).on('close', finish);
  });
  return { ended, stop };
}

/** Service-worker requests have no frame, and Playwright throws rather than returning none. */
function safeFrame(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined;
  }
}
