import { describe, expect, it } from 'vitest';
import type { CallOptions } from '../client/types.js';
import type { PolicyClient } from '../policy-server/client.js';
import { LlmPolicy } from './llm-policy.js';

// A stand-in policy server (unit test only): /tokenize renders ChatML one token per character and
// honours the caller's signal like a real client; it counts the template probes it answers.
type Body = { model?: string; messages: { role: string; content: string }[]; add_generation_prompt?: boolean };
function fakeServer(options: { gate?: Promise<void>; failFirstProbe?: boolean } = {}) {
  const server = { probes: [] as (string | undefined)[], failNext: options.failFirstProbe ?? false };
  const client = {
    async tokenize(body: Body, call: CallOptions = {}) {
      // The probe is the only render that starts with the stand-in user message and has at most two messages.
      const probe = body.messages[0]?.content === 'probe' && body.messages.length <= 2;
      if (probe) server.probes.push(body.model);
      await options.gate;
      if (call.signal?.aborted) throw call.signal.reason;
      if (probe && server.failNext) {
        server.failNext = false;
        throw new Error('503 from the policy server');
      }
      const tokens = body.messages.flatMap((m) => [
        1000,
        ...[...`${m.role}\n${m.content}`].map((c) => c.charCodeAt(0)),
        1001,
        10,
      ]);
      if (body.add_generation_prompt) tokens.push(1000, ...[...'assistant\n'].map((c) => c.charCodeAt(0)));
      return { count: tokens.length, max_model_len: 4096, tokens };
    },
  };
  return { server, client: client as unknown as PolicyClient };
}
const episode = {
  task: 'click-test',
  seed: 1,
  episodeId: 'e',
  systemPrompt: 'S',
  observation: 'O',
  result: {} as never,
};
const policy = (client: PolicyClient, model = 'tiny') => new LlmPolicy(client, { model, maxTokens: 4 });

describe('LlmPolicy template probe cache', () => {
  it('probes a server and model once, however many policies (one per episode) start on it', async () => {
    const { server, client } = fakeServer();
    for (let i = 0; i < 3; i++) await policy(client).start(episode, {});
    await Promise.all([policy(client).start(episode, {}), policy(client).start(episode, {})]);
    const once = server.probes.length;
    expect(once).toBeGreaterThan(0);
    expect(server.probes.every((m) => m === 'tiny')).toBe(true);
    // Another model on the same server is probed on its own; so is the same model on another server.
    await policy(client, 'step-3').start(episode, {});
    expect(server.probes.filter((m) => m === 'step-3')).toHaveLength(once);
    const other = fakeServer();
    await policy(other.client).start(episode, {});
    expect(other.server.probes).toHaveLength(once);
    expect(server.probes).toHaveLength(2 * once);
  });

  it('forgets a failed probe: the next episode probes again and starts', async () => {
    const { server, client } = fakeServer({ failFirstProbe: true });
    await expect(policy(client).start(episode, {})).rejects.toThrow(/503/);
    const session = await policy(client).start(episode, {});
    expect(session.promptIds.length).toBeGreaterThan(0);
    await policy(client).start(episode, {});
    expect(new Set(server.probes).size).toBe(1);
    expect(server.probes.length).toBeGreaterThan(0);
  });

  it("one episode's cancellation does not fail a neighbour waiting on the same probe", async () => {
    let open!: () => void;
    const { client } = fakeServer({ gate: new Promise<void>((resolve) => (open = resolve)) });
    const cancelled = new AbortController();
    const first = policy(client).start(episode, { signal: cancelled.signal });
    const second = policy(client).start(episode, {});
    cancelled.abort(new Error('episode cancelled'));
    open();
    await expect(first).rejects.toThrow(/cancelled/);
    expect((await second).promptIds.length).toBeGreaterThan(0);
  });
});
