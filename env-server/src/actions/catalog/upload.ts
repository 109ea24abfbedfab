import type { Page } from 'playwright-core';
import { isPlaywrightError, isPlaywrightTimeout, playwrightFirstLine } from '../execute/execute-errors.js';
import { ActionError } from '../types.js';
import { actOnBid } from '../execute/act-on-bid.js';
import { NO_WAIT_AFTER } from './bid-pointer.js';
import { defineAction } from './define.js';
import { bid as bidParam, coordinate, files as fileParam } from './params.js';
import { num, str, strList } from './read-params.js';
import { cssPoint } from '../execute/coordinates.js';

/**
 * Clicks with `click` and hands `files` to the file chooser the click opens. Listening for the
 * chooser turns on Chromium's chooser interception without waiting for it; a bare mouse click
 * sent right after can beat it and open an (invisible) native dialog instead. One evaluate on
 * the same CDP session is queued behind the interception, so it is in place before the click.
 */
async function uploadThroughChooser(
  page: Page,
  files: string[],
  timeout: number,
  what: string,
  click: () => Promise<unknown>,
) {
  const chooser = page.waitForEvent('filechooser', { timeout });
  chooser.catch(() => undefined); // awaited below; a failed click must not leave it unhandled
  await page.evaluate(() => 0);
  await click();
  try {
    await (await chooser).setFiles(files, { timeout });
  } catch (error) {
    if (!isPlaywrightTimeout(error) || !(error instanceof Error)) throw error;
    throw new ActionError('TimeoutError', `${what} opened no file chooser; ${playwrightFirstLine(error)}`);
  }
}

/* upload_file(bid, file) and mouse_upload_file(x, y, file); `file` may be one path or a list. */

export const uploadFile = defineAction({
  name: 'upload_file',
  subsets: 'bid',
  params: [bidParam(), fileParam],
  description: 'Upload one or several files with a file input.',
  examples: [
    "upload_file('572', '/home/user/my_receipt.pdf')",
    "upload_file('63', ['/home/bob/image.jpg', '/home/bob/file.zip'])",
  ],
  touchesPage: true,
  run: (params, ctx) => {
    const bid = str(params, 'bid');
    const files = strList(params, 'file').map((f) => ctx.resolveUploadPath(f));
    const page = ctx.activePage();
    return actOnBid(ctx, {
      bid,
      action: 'upload_file',
      run: async (t, o) => {
        // A file input (or its label) takes the files directly, even when hidden behind a
        // styled button; anything else is a button that opens a chooser when clicked.
        try {
          await t.setInputFiles(files, { timeout: o.timeout });
        } catch (error) {
          if (!isPlaywrightError(error) || isPlaywrightTimeout(error)) throw error;
          await uploadThroughChooser(page, files, o.timeout, `clicking the element with bid "${bid}"`, () =>
            t.click({ ...o, ...NO_WAIT_AFTER }),
          );
        }
      },
    });
  },
});

export const mouseUploadFile = defineAction({
  name: 'mouse_upload_file',
  subsets: 'coord',
  params: [coordinate('x'), coordinate('y'), fileParam],
  description: 'Click at a position that opens a file chooser and upload one or several files.',
  examples: ["mouse_upload_file(132.1, 547, 'my_receipt.pdf')"],
  touchesPage: true,
  run: async (params, ctx) => {
    const files = strList(params, 'file').map((f) => ctx.resolveUploadPath(f));
    const page = ctx.activePage();
    const x = num(params, 'x');
    const y = num(params, 'y');
    const point = await cssPoint(page, x, y);
    await uploadThroughChooser(page, files, ctx.actionTimeoutMs, `clicking at (${x}, ${y})`, () =>
      page.mouse.click(point.x, point.y),
    );
  },
});
