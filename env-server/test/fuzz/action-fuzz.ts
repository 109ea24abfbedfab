import type { Rng } from './rng.js';
import { Findings } from './findings.js';
import { actionString } from './actions.js';

const TASKS = ['click-test', 'enter-text', 'login-user', 'click-link'];

async function post(
  url: string,
  path: string,
  sessionId: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': sessionId },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * `count` generated action strings on one real session, resetting when an episode ends. Every
 * step must come back as an observation (mistakes in `last_action_error`), never a 5xx, and the
 * session must stay usable.
 */
export async function fuzzActions(url: string, rng: Rng, count: number): Promise<Findings> {
  const findings = new Findings('actions');
  const opened = await fetch(`${url}/sessions`, { method: 'POST' });
  const { session_id: sessionId } = (await opened.json()) as { session_id: string };
  try {
    let done = true;
    for (let i = 0; i < count; i += 1) {
      if (done) {
        const reset = await post(url, '/reset', sessionId, {
          task_name: rng.pick(TASKS),
          seed: rng.int(1000),
          action_set: { subsets: ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'] },
        });
        if (reset.status !== 200)
          findings.add('reset', `reset after fuzzed steps answered ${reset.status}: ${reset.text.slice(0, 300)}`);
        done = false;
      }
      const action = actionString(rng);
      const step = await post(url, '/step', sessionId, { action: { action_str: action } });
      findings.checkText(action, step.text);
      if (step.status !== 200) {
        findings.add(action, `step answered ${step.status}: ${step.text.slice(0, 300)}`);
        done = true;
        continue;
      }
      done = (JSON.parse(step.text) as { done: boolean }).done;
    }
  } finally {
    await fetch(`${url}/sessions/${sessionId}`, { method: 'DELETE' });
  }
  return findings;
}
