import { describe, expect, it } from 'vitest';
import { ChatTemplateError, ChatTokens, type Tokenizer } from './chat-tokens.js';

// A stand-in tokenizer (unit test only): ChatML, one token per character, specials as 1000+.
const IM_START = 1000;
const IM_END = 1001;
const chars = (text: string) => [...text].map((c) => c.charCodeAt(0));
type Body = { messages?: { role: string; content?: unknown }[]; add_generation_prompt?: boolean | null };
function chatml(
  render: (m: { role: string; content: string }, last: boolean) => number[] = (m) => [
    IM_START,
    ...chars(`${m.role}\n${m.content}`),
    IM_END,
    ...chars('\n'),
  ],
): Tokenizer & { calls: Body[] } {
  const calls: Body[] = [];
  return {
    calls,
    async tokenize(body) {
      const b = body as Body;
      calls.push(b);
      const msgs = b.messages!.map((m) => ({ role: m.role, content: String(m.content) }));
      const tokens = msgs.flatMap((m, i) => render(m, i === msgs.length - 1));
      if (b.add_generation_prompt) tokens.push(IM_START, ...chars('assistant\n'));
      return { count: tokens.length, max_model_len: 4096, tokens };
    },
  };
}

describe('ChatTokens', () => {
  it('learns the turn close from the template and renders the first prompt', async () => {
    const tokenizer = chatml();
    const template = await ChatTokens.probe(tokenizer, 'tiny');
    expect(template.turnClose).toEqual([IM_END, 10]);
    expect(template.maxModelLen).toBe(4096);
    expect(await template.firstPrompt('S', 'O')).toEqual([
      IM_START,
      ...chars('system\nS'),
      IM_END,
      10,
      IM_START,
      ...chars('user\nO'),
      IM_END,
      10,
      IM_START,
      ...chars('assistant\n'),
    ]);
    expect(tokenizer.calls.every((c) => (c as { model?: string }).model === 'tiny')).toBe(true);
  });

  it('env tokens: the close the completion lacks, then the next user turn and the generation prompt', async () => {
    const template = await ChatTokens.probe(chatml(), undefined);
    const next = [IM_START, ...chars('user\nobs 2'), IM_END, 10, IM_START, ...chars('assistant\n')];
    // Stopped on <|im_end|> (it is in the completion): only the newline after it is the env's.
    expect(await template.envTokens([...chars("click('5')"), IM_END], 'obs 2')).toEqual([10, ...next]);
    // Cut at max_tokens: the whole close is the env's.
    expect(await template.envTokens(chars("click('"), 'obs 2')).toEqual([IM_END, 10, ...next]);
  });

  it('a conversation rendered as the same tokens whatever came before it: prompt k + completion + env = the whole rendering', async () => {
    const tokenizer = chatml();
    const template = await ChatTokens.probe(tokenizer, undefined);
    const first = await template.firstPrompt('S', 'O1');
    const completion = [...chars("click('1')"), IM_END];
    const env = await template.envTokens(completion, 'O2');
    const whole = await tokenizer.tokenize({
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'O1' },
        { role: 'assistant', content: "click('1')" },
        { role: 'user', content: 'O2' },
      ],
      add_generation_prompt: true,
    });
    expect([...first, ...completion, ...env]).toEqual(whole.tokens);
  });

  it('refuses a template whose renderings do not extend each other', async () => {
    // Renders the last message differently from earlier ones (as some reasoning templates do).
    const shifty = chatml((m, last) => [IM_START, ...chars(`${m.role}${last ? '*' : ''}\n${m.content}`), IM_END]);
    await expect(ChatTokens.probe(shifty, undefined)).rejects.toBeInstanceOf(ChatTemplateError);
  });
});
