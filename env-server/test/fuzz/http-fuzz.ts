import type { Rng } from './rng.js';
import { Findings } from './findings.js';
import { deeplyNested, jsonValue } from './values.js';
import { actionString } from './actions.js';

/** A body for one of the stateful routes: mostly near-valid shapes, sometimes junk. */
function body(rng: Rng): string {
  switch (rng.int(6)) {
    case 0:
      return JSON.stringify({
        task_name: rng.pick(['click-test', 'enter-text', 'nope', '']),
        seed: jsonValue(rng, 1),
        options: jsonValue(rng, 3),
      });
    case 1:
      return JSON.stringify({ action: { action_str: actionString(rng), metadata: jsonValue(rng, 2) } });
    case 2:
      return JSON.stringify(jsonValue(rng, 4));
    case 3:
      return `{"seed":${deeplyNested(rng.pick([10, 65, 5000]))}}`;
    case 4:
      return rng.pick(['{', '', 'null', '[]', '"x"', '{"action":', '\u0000', '{"seed":1}'.repeat(3)]);
    default:
      return JSON.stringify({
        action: { action_str: actionString(rng) },
        timeout_s: rng.pick([1, 5, 30, 600, 601, -1, 0]),
      });
  }
}

/** `count` requests at the OpenEnv routes on the default HTTP session; no reply may be a 5xx. */
export async function fuzzHttp(url: string, rng: Rng, count: number): Promise<Findings> {
  const findings = new Findings('http');
  const sessions = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const route = rng.pick(['/reset', '/step', '/step', '/state', '/mcp', '/sessions/does-not-exist']);
    const method = route === '/state' ? 'GET' : route.startsWith('/sessions') ? 'DELETE' : 'POST';
    const text = method === 'POST' ? body(rng) : undefined;
    const contentType = rng.chance(0.9)
      ? 'application/json'
      : rng.pick(['text/plain', 'application/x-www-form-urlencoded', '']);
    const response = await fetch(url + route, {
      method,
      headers: contentType ? { 'content-type': contentType } : {},
      body: text,
    });
    const reply = await response.text();
    const session = response.headers.get('x-session-id');
    const input = `${method} ${route} ${text ?? ''}`;
    // A failed reset names only a default session that was open already: one it opened is closed again.
    if (route === '/reset' && response.status !== 200 && session && !sessions.has(session))
      findings.add(input, `HTTP ${response.status} left session ${session} open`);
    if (session) sessions.add(session);
    // Not even a deadline the client set itself: a step past it is the policy's timeout, a 200.
    if (response.status >= 500) findings.add(input, `HTTP ${response.status}: ${reply.slice(0, 300)}`);
    findings.checkText(input, reply);
  }
  // The default HTTP session lives until it idles out; end it so the run leaves nothing open.
  for (const session of sessions) await fetch(`${url}/sessions/${session}`, { method: 'DELETE' });
  return findings;
}
