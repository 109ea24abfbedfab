import type { Page } from 'playwright-core';

/**
 * Runs the few BrowserGym actions our oracles emit (`click`, `fill`, `press` with string
 * arguments) as plain Playwright calls, until the real action executor is wired in.
 */
export async function runOracleAction(page: Page, action: string): Promise<void> {
  const call = /^(click|fill|press)\((.*)\)$/s.exec(action.trim());
  if (!call) throw new Error(`test runner cannot run ${JSON.stringify(action)}`);
  const [, name, argText] = call;
  const args = [...argText!.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => unescapePy(m[1]!));
  const [bid, text] = args;
  if (bid === undefined) throw new Error(`no bid in ${JSON.stringify(action)}`);
  const target = page.locator(`[bid="${bid}"]`);
  if (name === 'click') await target.click({ timeout: 2_000 });
  else if (text === undefined) throw new Error(`${name} needs a second argument: ${JSON.stringify(action)}`);
  else if (name === 'fill') await target.fill(text, { timeout: 2_000 });
  else await target.press(text, { timeout: 2_000 });
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t' };

function unescapePy(body: string): string {
  return body.replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c);
}
