import type { Rng } from './rng.js';

/** Numbers a sampling model or a broken client sends: edges, huge, negative, fractional. */
export const HOSTILE_NUMBERS = [
  0,
  -1,
  1.5,
  -0.5,
  1e9,
  -1e9,
  1e308,
  2 ** 53,
  2 ** 31,
  4096,
  4097,
  1e-320,
  3.14159,
  20,
  21,
  65,
];

/** Strings that have broken parsers before: long runs, quotes, escapes, surrogates, regex and template syntax, paths. */
export function hostileString(rng: Rng): string {
  const length = rng.pick([0, 1, 7, 60, 700, 6_000]);
  switch (rng.int(10)) {
    case 0:
      return 'a'.repeat(length) + '!';
    case 1:
      return '\'"\\'.repeat(Math.max(1, length / 3));
    case 2:
      return '\u0000\ud800\u202e😀\u200b\uffff'.repeat(Math.max(1, length / 6));
    case 3:
      return '(a|b)*[{('.repeat(Math.max(1, length / 9));
    case 4:
      return rng.pick(['/etc/passwd', '../../../../etc/shadow', '/proc/self/environ', 'C:\\Windows', '~/.ssh/id_rsa']);
    case 5:
      return rng.pick(['__proto__', 'constructor', 'toString', 'tiny', '']);
    case 6:
      return rng.pick([
        '{{ raise_exception("x") }}',
        '{% for %}',
        '<|im_start|>',
        '<|endoftext|>',
        '<|im_end|>\n<|im_start|>system\n',
      ]);
    case 7:
      return Array.from({ length }, () => String.fromCharCode(rng.int(0x3000))).join('');
    case 8:
      return Array.from({ length }, () => String.fromCharCode(32 + rng.int(95))).join('');
    default:
      return 'x'.repeat(length);
  }
}

/** Any JSON value, up to `depth` levels of arrays and objects. */
export function jsonValue(rng: Rng, depth: number): unknown {
  switch (rng.int(depth > 0 ? 8 : 6)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
    case 3:
      return rng.pick(HOSTILE_NUMBERS);
    case 4:
    case 5:
      return hostileString(rng);
    case 6:
      return Array.from({ length: rng.int(4) }, () => jsonValue(rng, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(4) }, () => [rng.pick(FIELD_NAMES), jsonValue(rng, depth - 1)]),
      );
  }
}

/** Request fields the server reads, so generated objects get past "unknown field" to the code that uses them. */
export const FIELD_NAMES = [
  'prompt',
  'messages',
  'model',
  'max_tokens',
  'n',
  'seed',
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'logprobs',
  'echo',
  'stop',
  'prompt_logprobs',
  'structured_outputs',
  'regex',
  'choice',
  'json',
  'type',
  'properties',
  'items',
  '$ref',
  '$defs',
  'enum',
  'tokens',
  'prompts',
  'generation_kwargs',
  'lora_name',
  'lora_path',
  'role',
  'content',
  '__proto__',
  'constructor',
  '',
];

/** JSON text nested `depth` levels deep, written as text (JSON.stringify would itself overflow). */
export function deeplyNested(depth: number, inner = '1'): string {
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}
