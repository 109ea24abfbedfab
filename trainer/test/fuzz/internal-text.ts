/**
 * What no reply may carry: server paths, stack frames, JavaScript error shapes and library
 * internals. A fragment the request itself contained is the client's own text coming back (a
 * model name in a 404), not a leak, and is not reported.
 */
const INTERNAL: RegExp[] = [
  /\/(?:tmp|home|root|usr|work|proc|var|opt|etc)\/[\w.-]+/,
  /\bat (?:async )?[\w.$<>]+ \(?(?:file:|node:|\/)[^)\s]*:\d+:\d+/,
  /node_modules/,
  /\b(?:TypeError|RangeError|ReferenceError|SyntaxError): /,
  /Cannot read propert(?:y|ies) of (?:undefined|null)/,
  /is not a function/,
  /Maximum call stack/,
  /\bonnxruntime|\bort\.|InferenceSession|\bworker_threads\b/,
  /\bgauntlet-tiny-/,
  // eslint-disable-next-line no-control-regex -- colour codes are exactly what must not leak.
  /\u001b\[/,
];

/** The first internal fragment of `reply` that `request` did not itself contain, if any. */
export function internalText(reply: string, request: string): string | undefined {
  for (const pattern of INTERNAL) {
    const global = new RegExp(pattern.source, `${pattern.flags}g`);
    for (const match of reply.matchAll(global)) if (!request.includes(match[0])) return match[0];
  }
  return undefined;
}
