import { BID_ARGUMENTS } from '@gauntlet/proto/agent';
import type { ElementProperties } from '@gauntlet/proto';

/** Where an action landed on the screenshot, in screenshot pixels: a bid's box or a coordinate point. */
export type ActionMark =
  | { kind: 'box'; action: string; bid: string; bbox: [x: number, y: number, width: number, height: number] }
  | { kind: 'point'; action: string; x: number; y: number };

const CALL = /^\s*([a-z_]+)\s*\((.*)\)\s*$/s;
const BID_ACTIONS: Record<string, number> = BID_ARGUMENTS;
/** Coordinate actions and how many (x, y) pairs lead their arguments. */
const POINT_ACTIONS: Record<string, number> = {
  mouse_click: 1,
  mouse_dblclick: 1,
  mouse_move: 1,
  mouse_drag_and_drop: 2,
  mouse_upload_file: 1,
};

/**
 * The marks of every line of an action (multi-action replies have several): each bid argument
 * with the box the observation gave for it, each coordinate pair as a point. Bids without a box
 * (hidden, or properties not computed) are left out: the viewer draws nothing rather than guess.
 */
export function actionMarks(action: string, properties: Record<string, ElementProperties>): ActionMark[] {
  const marks: ActionMark[] = [];
  for (const line of action.split('\n')) {
    const call = CALL.exec(line);
    if (!call) continue;
    const [, name, args] = call as unknown as [string, string, string];
    const bids = BID_ACTIONS[name] ?? 0;
    const strings = [...args.matchAll(/(['"])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2]!);
    for (const bid of strings.slice(0, bids)) {
      const bbox = properties[bid]?.bbox;
      if (bbox) marks.push({ kind: 'box', action: name, bid, bbox: [...bbox] });
    }
    const pairs = POINT_ACTIONS[name] ?? 0;
    const numbers = args.split(',').map((a) => Number(a.trim()));
    for (let i = 0; i < pairs; i++) {
      const [x, y] = [numbers[2 * i], numbers[2 * i + 1]];
      if (Number.isFinite(x) && Number.isFinite(y)) marks.push({ kind: 'point', action: name, x: x!, y: y! });
    }
  }
  return marks;
}
