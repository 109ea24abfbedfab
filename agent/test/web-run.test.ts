import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEnv, type LocalEnv } from '../src/env/local-env.js';
import { agent, readRun } from './support/agent.js';
import { startFakeChat, type ChatRequest, type FakeChat } from './support/fake-chat.js';
import { startWebSite, type WebSite } from './support/web-site.js';

// Open-web runs on pages this test serves on 127.0.0.1; no test reaches the internet. One env
// server (a real one, its bin, real Chromium) allows `site` only; another site stays refused.
let site: WebSite;
let other: WebSite;
let env: LocalEnv;
let chat: FakeChat;
const dir = mkdtempSync(join(tmpdir(), 'agent-web-'));
const MODEL = { OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'fake-shopper' };

/** The fake model: on the shop's front page it clicks "Place order", elsewhere it answers with the order number. */
function shopper(request: ChatRequest) {
  const last = request.messages.at(-1)!.content;
  const link = /\[(\w+)\] link 'Place order'/.exec(last)?.[1];
  return { text: link ? `<think>order first</think>click('${link}')` : "send_msg_to_user('Your order is 42.')" };
}

beforeAll(async () => {
  [site, other, chat] = await Promise.all([startWebSite(), startWebSite(), startFakeChat(shopper)]);
  env = await startLocalEnv({ extraArgs: ['--allow-origin', site.origin] });
}, 120_000);
afterAll(async () => {
  await env?.stop();
  await Promise.all([site?.close(), other?.close(), chat?.close()]);
});

const web = (...args: string[]) => [
  'run',
  '--url',
  `${site.origin}/`,
  '--goal',
  'Place an order and tell me its number.',
  ...args,
];

describe('gauntlet-agent run --url --goal', () => {
  it('--mode api on a local env it starts itself: clicks through, answers, judged a success by --answer and --success-url', async () => {
    const out = join(dir, 'judged');
    const run = await agent(
      [...web('--mode', 'api', '--answer', '\\b42\\b', '--success-url', '/order$', '--out', out)],
      { ...MODEL, OPENAI_BASE_URL: chat.baseUrl },
    );
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out.at(-1)).toMatch(/^1\/1 episodes succeeded \(2 steps, 2 model calls/);
    const { metrics, episodes } = readRun(out);
    expect(metrics.run).toMatchObject({
      tasks: ['web'],
      web: { url: `${site.origin}/`, answer: '\\b42\\b', success_url: '/order$' },
    });
    expect(metrics.totals).toMatchObject({ episodes: 1, successes: 1, unjudged: 0, success_rate: 1, model_steps: 2 });
    expect(episodes[0]).toMatchObject({
      task: 'web',
      outcome: 'success',
      reward: 1,
      final_task_info: { judged: true, answer: 'Your order is 42.', checks: { answer: true, success_url: true } },
    });
    expect(episodes[0]!.turns.map((t) => t.action)).toEqual([
      expect.stringMatching(/^click\('\w+'\)$/),
      "send_msg_to_user('Your order is 42.')",
    ]);
    expect(episodes[0]!.turns[1]!.observation.url).toBe(`${site.origin}/order`);
    // The model was told how to end an open-web episode.
    expect(chat.requests.at(-1)!.messages[0]!.content).toMatch(/send_msg_to_user\(text\)/);
  });

  it('without a goal spec the episode is unjudged: reward 0, never a success, counted apart (hybrid: the model acts throughout)', async () => {
    const out = join(dir, 'unjudged');
    const run = await agent([...web('--env', env.url, '--mode', 'hybrid', '--out', out)], {
      ...MODEL,
      OPENAI_BASE_URL: chat.baseUrl,
    });
    expect(run.errors).toEqual([]);
    expect(run.out.at(-1)).toMatch(/^0\/1 episodes succeeded, 1 unjudged \(no goal spec\)/);
    const { metrics, episodes } = readRun(out);
    expect(metrics.totals).toMatchObject({ episodes: 1, successes: 0, unjudged: 1, success_rate: 0 });
    expect(metrics.episodes[0]).toMatchObject({ outcome: 'unjudged', success: false, model_steps: 2, oracle_steps: 0 });
    expect(episodes[0]).toMatchObject({ outcome: 'unjudged', reward: 0, final_task_info: { judged: false } });
    expect(episodes[0]!.turns.every((t) => t.actor === 'model' && t.oracle_silence === 'no_oracle')).toBe(true);

    const compared = await agent(['compare', join(dir, 'judged'), out]);
    expect(compared.code).toBe(0);
    const lines = compared.out.join('\n').split('\n');
    expect(lines[0]).toMatch(/unjudged A +unjudged B/);
    // B's only episode was unjudged: it has no success rate, and the count shows it.
    expect(lines.find((l) => l.startsWith('web'))).toMatch(/^web +100% +- +- .* 0 +1$/);
  });

  it('a refused origin is one line naming --url, exit 1; a bad regex names its flag, exit 2', async () => {
    const refused = await agent(
      [
        'run',
        '--url',
        `${other.origin}/`,
        '--goal',
        'g',
        '--env',
        env.url,
        '--mode',
        'api',
        '--out',
        join(dir, 'refused'),
      ],
      { ...MODEL, OPENAI_BASE_URL: chat.baseUrl },
    );
    expect(refused.code).toBe(1);
    expect(refused.errors).toEqual([
      expect.stringMatching(
        new RegExp(`^gauntlet-agent run: --url: Navigation to ${other.origin}/ is blocked: .*--allow-origin\\)$`),
      ),
    ]);
    const regex = await agent(
      [...web('--env', env.url, '--mode', 'api', '--success-text', '(unclosed', '--out', join(dir, 're'))],
      {
        ...MODEL,
        OPENAI_BASE_URL: chat.baseUrl,
      },
    );
    expect(regex.code).toBe(2);
    expect(regex.errors).toEqual([
      expect.stringMatching(/^gauntlet-agent run: --success-text: not a valid regular expression: .* \(see --help\)$/),
    ]);
  });

  it('usage errors, exit 2 naming the flag: --url with --task or --mode oracle, a spec without --url, --allow-origin with --env', async () => {
    const cases: [string[], RegExp][] = [
      [
        [...web('--task', 'click-test', '--mode', 'api')],
        /^gauntlet-agent run: --url plays an open-web task: give --url or --task/,
      ],
      [[...web('--mode', 'oracle')], /^gauntlet-agent run: --mode oracle has no oracle for an open-web task/],
      [['run', '--answer', '42', '--mode', 'api'], /^gauntlet-agent run: --answer needs --url/],
      [['run', '--url', `${site.origin}/`, '--mode', 'api'], /^gauntlet-agent run: --goal is needed with --url/],
      [
        [...web('--mode', 'api', '--env', env.url, '--allow-origin', other.origin)],
        /^gauntlet-agent run: --allow-origin configures/,
      ],
      [
        ['run', '--url', 'file:///etc/passwd', '--goal', 'g', '--mode', 'api'],
        /^gauntlet-agent run: --url must be an absolute http/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await agent(args, MODEL);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.errors, args.join(' ')).toEqual([expect.stringMatching(message)]);
    }
  });

  it("--help says the local env allows --url's origin", async () => {
    const help = (await agent(['run', '--help'])).out.join('\n');
    expect(help).toMatch(/--allow-origin ORIGIN/);
    expect(help).toMatch(/besides --url's own, which is always allowed when the agent starts the env/);
  });
});
