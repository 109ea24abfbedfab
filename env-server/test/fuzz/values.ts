import type { Rng } from './rng.js';

/** Numbers a sampling model or a broken client sends: edges, huge, tiny, negative, fractional. */
export const HOSTILE_NUMBERS = [0, -1, 1e39, -1e39, 1e308, 1e-320, 2 ** 53 + 1, -0.5, 123456789012, 3.14159, 1e38];

/** Strings that have broken parsers and renderers before: long runs, quotes, escapes, unicode, nulls. */
export function hostileString(rng: Rng): string {
  const len = rng.pick([0, 1, 5, 40, 300, 5_000]);
  switch (rng.int(8)) {
    case 0:
      return 'a'.repeat(len) + '!';
    case 1:
      return '\'"\\'.repeat(Math.max(1, len / 3));
    case 2:
      return '\u0000\u202e\ud800😀\u200b'.repeat(Math.max(1, len / 5));
    case 3:
      return '[{('.repeat(Math.max(1, len / 3));
    case 4:
      return '/etc/passwd';
    case 5:
      return '__proto__';
    case 6:
      return Array.from({ length: len }, () => String.fromCharCode(32 + rng.int(95))).join('');
    default:
      return 'x'.repeat(len);
  }
}

/** Any JSON value, up to `depth` levels of arrays/objects (some beyond the server's bound). */
export function jsonValue(rng: Rng, depth: number): unknown {
  const kind = depth <= 0 ? rng.int(5) : rng.int(7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick(HOSTILE_NUMBERS);
    case 3:
    case 4:
      return hostileString(rng);
    case 5:
      return Array.from({ length: rng.int(4) }, () => jsonValue(rng, depth - 1));
    default:
      return Object.fromEntries(Array.from({ length: rng.int(4) }, () => [rng.pick(KEYS), jsonValue(rng, depth - 1)]));
  }
}

/** Keys our schemas know, so generated objects reach validation rather than stopping at "unknown key". */
export const KEYS = [
  'seed',
  'task_name',
  'episode_id',
  'options',
  'observation',
  'action_set',
  'action',
  'action_str',
  'metadata',
  'timeout_s',
  'session_id',
  'request_id',
  'type',
  'data',
  'subsets',
  'strict',
  'multi_action',
  'start_step',
  'screenshot',
  '__proto__',
  'constructor',
  '',
];

/** Text nested `depth` levels deep, built as text (JSON.stringify would itself overflow). */
export function deeplyNested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}
