import { describe, expect, it } from 'vitest';
import type { PolicyClient } from '../policy-server/client.js';
import { PolicyReplyError } from '../policy-server/errors.js';
import { LlmPolicy } from './llm-policy.js';

// A stand-in policy server (unit test only): one token per character, and a generate that
// answers as `answeredAs` whatever model was asked for.
function fakeClient(answeredAs: string): PolicyClient {
  return {
    baseUrl: 'http://fake:1',
    async tokenize(body: { messages: { role: string; content: string }[]; add_generation_prompt?: boolean }) {
      const tokens = body.messages.flatMap((m) => [
        1000,
        ...[...`${m.role}\n${m.content}`].map((c) => c.charCodeAt(0)),
        1001,
        10,
      ]);
      if (body.add_generation_prompt) tokens.push(1000, ...[...'assistant\n'].map((c) => c.charCodeAt(0)));
      return { count: tokens.length, max_model_len: 4096, tokens };
    },
    async generate() {
      return {
        model: answeredAs,
        text: 'noop()',
        tokenIds: [110, 1001],
        logprobs: [-0.5, -0.25],
        finishReason: 'stop',
      };
    },
  } as unknown as PolicyClient;
}
const episode = { task: 't', seed: 1, episodeId: 'e', systemPrompt: 'S', observation: 'O', result: {} as never };

describe('LlmPolicy provenance', () => {
  it('records the model that answered and the requested adapter version on the turn', async () => {
    const policy = new LlmPolicy(fakeClient('run@v3'), {
      model: 'run@v3',
      adapter: 'run@v3',
      version: 3,
      maxTokens: 4,
    });
    const session = await policy.start(episode, {});
    const reply = await session.act({ index: 0, observation: 'O', result: {} as never }, {});
    expect(reply.policy).toEqual({ model: 'run@v3', adapter: 'run@v3', version: 3 });
  });

  it('refuses a reply from another model than the one asked for (retried, never trained on)', async () => {
    const policy = new LlmPolicy(fakeClient('tiny'), { model: 'run@v3', adapter: 'run@v3', version: 3, maxTokens: 4 });
    const session = await policy.start(episode, {});
    await expect(session.act({ index: 0, observation: 'O', result: {} as never }, {})).rejects.toThrow(
      PolicyReplyError,
    );
  });
});
