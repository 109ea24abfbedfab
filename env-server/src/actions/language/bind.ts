import { resolveAlias, unknownActionHint } from './bindAliases.js';
import { assignArguments } from './bindArity.js';
import { pyRepr } from '../../python/repr.js';
import { checkValue } from './bindValues.js';
import { findAction } from '../catalog/catalog.js';
import { ActionError, type BoundAction, type Literal, type ParsedCall } from '../types.js';

export { pyRepr };

/**
 * Binds a parsed call to its action: name enabled, arguments assigned as Python would, values
 * checked. Throws ActionError with the type and text BrowserGym would report.
 */
export function bindCall(call: ParsedCall, allowed: ReadonlySet<string>): BoundAction {
  const spec = findAction(call.name);
  if (spec === undefined || !allowed.has(spec.name)) {
    const hint = spec === undefined ? unknownActionHint(call.name, allowed) : notEnabledHint(spec.subsets);
    throw new ActionError('NameError', `Invalid action type ${pyRepr(call.name)}.${hint}`);
  }
  const assigned = assignArguments(spec, resolveAlias(call));
  const params: Record<string, Literal> = {};
  for (const param of spec.params) {
    const value = assigned.get(param.name) ?? null;
    checkValue(spec.name, param, value);
    params[param.name] = value;
  }
  return { name: spec.name, params, source: call.source };
}

function notEnabledHint(subsets: readonly string[]): string {
  const names = subsets.map((subset) => `'${subset}'`).join(' or ');
  return ` (not enabled: enable the ${names} subset)`;
}
