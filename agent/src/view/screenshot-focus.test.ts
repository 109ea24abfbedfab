import { describe, expect, it } from 'vitest';
import type { ActionMark } from '../report/action-marks.js';
import { screenshotFocus } from './screenshot-focus.js';

const TASK = 'http://tasks.gauntlet.test/miniwob/click-button.html';

describe('screenshotFocus', () => {
  it("zooms a MiniWoB page to the task's frame plus a margin", () => {
    expect(screenshotFocus(TASK, [])).toEqual([0, 0, 184, 234]);
    expect(screenshotFocus('file:///home/me/miniwob-plusplus/miniwob/book-flight.html', [])).toEqual([0, 0, 184, 234]);
  });

  it('keeps every mark inside, with the same margin around it', () => {
    const box: ActionMark = { kind: 'box', action: 'click', bid: '4', bbox: [150, 200, 40.5, 19] };
    expect(screenshotFocus(TASK, [box])).toEqual([0, 0, 215, 243]);
    expect(screenshotFocus(TASK, [{ kind: 'point', action: 'mouse_click', x: 300, y: 20 }])).toEqual([0, 0, 324, 234]);
  });

  it('shows any other page whole', () => {
    expect(screenshotFocus('http://tasks.gauntlet.test/gauntlet/index.html', [])).toBeNull();
    expect(screenshotFocus('https://shop.example/miniwob/', [])).toBeNull();
    expect(screenshotFocus('not a url', [])).toBeNull();
  });
});
