import { OriginRefusedError, parseOrThrow, WebTaskOptions } from '@gauntlet/proto';
import { navigationRefusal, type NavigationPolicy } from '../../browser/navigation-policy.js';

/**
 * Validates a `web` reset's options against their declared shape (bad or missing url, empty
 * goal, a regex too long or that does not compile: ValidationError at `options.<key>`), then
 * asks the same origin policy `goto` meets whether the start page may be opened: a refused
 * origin is an OriginRefusedError, never a page load.
 */
export function parseWebOptions(raw: Record<string, unknown>, policy: NavigationPolicy): WebTaskOptions {
  const options = parseOrThrow(WebTaskOptions, raw, ['body', 'options']);
  const refusal = navigationRefusal(options.url, { ...policy, allowDataUrls: false });
  if (refusal) throw new OriginRefusedError(options.url, refusal);
  return options;
}
