/**
 * Text that must never reach a client: filesystem paths, stack frames, and the names of the
 * libraries we call (an agent should read BrowserGym's error words, not Playwright's API).
 */
const INTERNAL = [
  /(?:^|[\s'"(])\/(?:tmp|home|root|usr|work|proc|var|opt)\/[\w.-]/,
  /\bat (?:async )?[\w.<>]+ \(?(?:file:|node:|\/)[^)]*:\d+:\d+/,
  /node_modules/,
  /\b(?:locator|page|frame|frameLocator|keyboard|mouse|elementHandle|browserContext|browserType|browser)\.\w+: /,
  /Maximum call stack/,
  // eslint-disable-next-line no-control-regex -- ANSI colour codes are exactly what must not leak.
  /\u001b\[/,
];

/** The first internal fragment in `text`, or undefined when it is clean. */
export function internalText(text: string): string | undefined {
  for (const pattern of INTERNAL) {
    const found = pattern.exec(text);
    if (found) return found[0];
  }
  return undefined;
}
