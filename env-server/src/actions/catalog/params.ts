import type { ParamSpec } from './spec.js';
import { COORDINATE_RANGE, SCROLL_RANGE } from './ranges.js';

export const BUTTONS = ['left', 'middle', 'right'] as const;
export const MODIFIERS = ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] as const;

/** Parameter declarations the actions share; the binder checks every argument against them. */
export const bid = (name = 'bid'): ParamSpec => ({ name, kind: 'string', bid: true });
export const text = (name: string): ParamSpec => ({ name, kind: 'string' });
export const keys = (name: string): ParamSpec => ({ name, kind: 'string', keys: true });
export const coordinate = (name: string): ParamSpec => ({ name, kind: 'number', range: COORDINATE_RANGE });
export const delta = (name: string): ParamSpec => ({ name, kind: 'number', range: SCROLL_RANGE });
export const files: ParamSpec = { name: 'file', kind: 'string_or_list' };
export const button: ParamSpec = { name: 'button', kind: 'string', default: 'left', allowed: BUTTONS };
export const modifiers: ParamSpec = { name: 'modifiers', kind: 'list', default: [], allowed: MODIFIERS };
