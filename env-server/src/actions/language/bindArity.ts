import type { ActionSpec } from '../catalog/catalog.js';
import { ActionError, type Literal, type ParsedCall } from '../types.js';

/**
 * Assigns a call's arguments to the action's parameters the way CPython does, in CPython's
 * order (keyword problems, then too many positionals, then missing ones) and with its exact
 * TypeError texts, so agents trained on BrowserGym see the same feedback. Defaults are copied:
 * a shared default list must never be mutated by one call for the next (Python's own trap).
 */
export function assignArguments(spec: ActionSpec, call: ParsedCall): Map<string, Literal> {
  const fn = `${spec.name}()`;
  const assigned = new Map<string, Literal>();
  spec.params.slice(0, call.args.length).forEach((param, i) => assigned.set(param.name, call.args[i] ?? null));
  for (const [key, value] of Object.entries(call.kwargs)) {
    if (!spec.params.some((param) => param.name === key)) {
      throw new ActionError('TypeError', `${fn} got an unexpected keyword argument '${key}'`);
    }
    if (assigned.has(key)) throw new ActionError('TypeError', `${fn} got multiple values for argument '${key}'`);
    assigned.set(key, value);
  }
  if (call.args.length > spec.params.length)
    throw new ActionError('TypeError', tooManyPositional(spec, call.args.length));
  const missing = spec.params.filter((param) => param.default === undefined && !assigned.has(param.name));
  if (missing.length > 0) {
    const plural = missing.length > 1 ? 's' : '';
    const names = joinNames(missing.map((param) => `'${param.name}'`));
    throw new ActionError(
      'TypeError',
      `${fn} missing ${missing.length} required positional argument${plural}: ${names}`,
    );
  }
  const bound = new Map(spec.params.map((param) => [param.name, structuredClone(param.default ?? null)]));
  for (const [name, value] of assigned) bound.set(name, value);
  return bound;
}

function tooManyPositional(spec: ActionSpec, given: number): string {
  const max = spec.params.length;
  const min = spec.params.filter((param) => param.default === undefined).length;
  const takes =
    min === max ? `${max} positional argument${max === 1 ? '' : 's'}` : `from ${min} to ${max} positional arguments`;
  return `${spec.name}() takes ${takes} but ${given} ${given === 1 ? 'was' : 'were'} given`;
}

/** CPython's list style: 'a'; 'a' and 'b'; 'a', 'b', and 'c'. */
function joinNames(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, -1).join(', ')}, and ${names.at(-1) ?? ''}`;
}
