import type { ActionMark } from '../report/action-marks.js';

/** A part of a screenshot, in its pixels: [x, y, width, height]. */
export type Box = [x: number, y: number, width: number, height: number];

/**
 * A MiniWoB task (built in, or a MiniWoB++ page) draws itself in a 160×210 px frame in the top
 * left corner of a 1280×720 viewport: shown whole, the task is a stamp in a blank picture.
 */
const MINIWOB_FRAME = { right: 160, bottom: 210 };
const MINIWOB_PAGE = /\/miniwob\/[\w.-]+\.html$/;
/** Room around the frame for a body margin and for the action's label drawn outside its box. */
const MARGIN = 24;

/**
 * The part of a step's screenshot the viewer zooms to: for a MiniWoB page the task's frame
 * together with everything the action touched (a mark is never cut off), plus a margin; null
 * (the whole picture) for any other page, where the task fills the viewport.
 */
export function screenshotFocus(url: string, marks: ActionMark[]): Box | null {
  if (!MINIWOB_PAGE.test(pathOf(url))) return null;
  let [left, top, right, bottom] = [0, 0, MINIWOB_FRAME.right, MINIWOB_FRAME.bottom];
  for (const mark of marks) {
    const [x, y, w, h] = mark.kind === 'box' ? mark.bbox : [mark.x, mark.y, 0, 0];
    [left, top] = [Math.min(left, x), Math.min(top, y)];
    [right, bottom] = [Math.max(right, x + w), Math.max(bottom, y + h)];
  }
  const [x, y] = [Math.max(0, left - MARGIN), Math.max(0, top - MARGIN)];
  return [x, y, Math.ceil(right + MARGIN - x), Math.ceil(bottom + MARGIN - y)];
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
