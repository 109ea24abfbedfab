import { ValidationError } from '../errors.js';

/**
 * How deeply arrays and objects may nest in any request. Nothing on our wire needs more than a
 * handful of levels; the bound exists because every recursive walk of a value (validation,
 * error rendering, protobuf conversion, JSON.stringify) would otherwise overflow the stack on a
 * small hostile frame.
 */
export const MAX_NESTING_DEPTH = 64;

/** The error every depth check throws: a 422 / INVALID_ARGUMENT naming the bound. */
export function nestingTooDeep(max = MAX_NESTING_DEPTH): ValidationError {
  return new ValidationError(`Request nests arrays/objects more than ${max} levels deep`, [
    { loc: ['body'], msg: `nesting deeper than ${max} levels`, type: 'too_deep' },
  ]);
}

/**
 * Throws when JSON text nests deeper than `max`. A single linear pass (strings skipped), so it is
 * safe to run before parsing anything of any size. It jumps between the characters that matter
 * with regular expressions, so the long strings a body is mostly made of are skipped at native
 * speed (a byte-by-byte loop took ~50 ms of the event loop for a 7 MB prompt).
 */
export function assertJsonTextDepth(text: string, max = MAX_NESTING_DEPTH): void {
  const structure = /[[\]{}"]/g;
  const stringEnd = /["\\]/g;
  let depth = 0;
  for (let found = structure.exec(text); found; found = structure.exec(text)) {
    const char = found[0];
    if (char === '"') {
      stringEnd.lastIndex = found.index + 1;
      for (;;) {
        const end = stringEnd.exec(text);
        if (!end) return; // An unterminated string: the parser refuses it.
        if (end[0] === '\\') {
          stringEnd.lastIndex = end.index + 2;
          continue;
        }
        structure.lastIndex = end.index + 1;
        break;
      }
    } else if (char === '[' || char === '{') {
      depth += 1;
      if (depth > max) throw nestingTooDeep(max);
    } else {
      depth -= 1;
    }
  }
}

/** Throws when an already-decoded value nests deeper than `max`; iterative, so it cannot overflow. */
export function assertValueDepth(value: unknown, max = MAX_NESTING_DEPTH): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) throw nestingTooDeep(max);
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
}
