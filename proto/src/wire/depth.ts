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
 * Throws when JSON text nests deeper than `max`. A single linear pass over the characters (strings
 * skipped), so it is safe to run before parsing anything of any size.
 */
export function assertJsonTextDepth(text: string, max = MAX_NESTING_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c /* \ */) i += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      depth += 1;
      if (depth > max) throw nestingTooDeep(max);
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
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
