import { ACTION_NAMES } from '@gauntlet/proto/agent';
import { HOSTILE_NUMBERS, hostileString } from './values.js';
import type { Rng } from './rng.js';

// Every action an agent may name, plus names the parser must refuse.
const NAMES = [...ACTION_NAMES, 'not_an_action', '__proto__'];

const URLS = [
  'http://tasks.gauntlet.test/miniwob/click-test.html',
  'data:text/html,<script>alert(1)</script>',
  'blob:null/abc',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'http://127.0.0.1:8000/health',
  'about:blank',
  'http://[::1]:1/',
];

// Key chords: a long one was one unstoppable browser call of seconds (now capped at 6 keys).
const CHORDS = [`'${'Shift+'.repeat(2_000)}a'`, `'${'Control+'.repeat(7)}a'`, "'Shift++'", "'+'"];

/** A Python literal of a random shape, including the values that broke the server before. */
function literal(rng: Rng, depth = 2): string {
  switch (rng.int(depth > 0 ? 7 : 5)) {
    case 0:
      return String(rng.pick(HOSTILE_NUMBERS));
    case 1:
      return rng.pick(['True', 'False', 'None', 'float("nan")', '1e999', '-1e999', '0x' + 'f'.repeat(40), ...CHORDS]);
    case 2:
      return JSON.stringify(hostileString(rng));
    case 3:
      return JSON.stringify(rng.pick(URLS));
    case 4:
      return `'${rng.int(40)}'`;
    case 5:
      return `[${Array.from({ length: rng.int(4) }, () => literal(rng, depth - 1)).join(', ')}]`;
    default:
      return `{${literal(rng, depth - 1)}: ${literal(rng, depth - 1)}}`;
  }
}

function call(rng: Rng): string {
  const name = rng.pick(NAMES);
  const args = Array.from({ length: rng.int(5) }, () => literal(rng));
  if (rng.chance(0.2)) args.push(`${rng.pick(['button', 'modifiers', 'timeout', 'bid', 'x'])}=${literal(rng)}`);
  return `${name}(${args.join(', ')})`;
}

/** What a sampling policy emits: calls, prose around calls, several calls, truncated calls, junk. */
export function actionString(rng: Rng): string {
  switch (rng.int(6)) {
    case 0:
      return call(rng);
    case 1:
      return `Thought: ${hostileString(rng)}\nAction: ${call(rng)}`;
    case 2:
      return Array.from({ length: 1 + rng.int(4) }, () => call(rng)).join(rng.pick(['\n', '; ', ' ']));
    case 3:
      return call(rng).slice(0, 1 + rng.int(20));
    case 4:
      return hostileString(rng);
    default:
      return `\`\`\`python\n${call(rng)}\n\`\`\``;
  }
}
