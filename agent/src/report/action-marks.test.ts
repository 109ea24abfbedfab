import { describe, expect, it } from 'vitest';
import { actionMarks } from './action-marks.js';

const box = (bbox: [number, number, number, number] | null) => ({
  visibility: 1,
  bbox,
  clickable: true,
  set_of_marks: true,
});

describe('actionMarks', () => {
  it('gives each bid argument its box, each coordinate pair its point, across a multi-action reply', () => {
    const properties = { '12': box([24, 216, 177, 21]), '13': box([209, 216, 90, 21]), '14': box(null) };
    expect(actionMarks("fill('12', 'a, b')\nclick(\"13\")\nclick('14')\nmouse_click(40.5, 60)", properties)).toEqual([
      { kind: 'box', action: 'fill', bid: '12', bbox: [24, 216, 177, 21] },
      { kind: 'box', action: 'click', bid: '13', bbox: [209, 216, 90, 21] },
      { kind: 'point', action: 'mouse_click', x: 40.5, y: 60 },
    ]);
  });

  it('marks both ends of a drag, and nothing for actions without a place', () => {
    expect(actionMarks('mouse_drag_and_drop(1, 2, 3, 4)', {})).toEqual([
      { kind: 'point', action: 'mouse_drag_and_drop', x: 1, y: 2 },
      { kind: 'point', action: 'mouse_drag_and_drop', x: 3, y: 4 },
    ]);
    expect(
      actionMarks("noop()\nscroll(0, 200)\nsend_msg_to_user('12')\ngoto('http://x')", { '12': box([1, 1, 1, 1]) }),
    ).toEqual([]);
  });
});
