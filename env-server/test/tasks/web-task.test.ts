import { OriginRefusedError, ValidationError, type StepResult } from '@gauntlet/proto';
import { runEpisode, scriptedPolicy, taskInfo } from '@gauntlet/proto/agent';
import { createEnvClient, type EnvClient, type TransportName } from '@gauntlet/proto/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer } from '../support/server.js';
import { startWebSite, type WebSite } from '../support/web-site.js';

// A real env server and Chromium; the pages come from a site this test serves on 127.0.0.1,
// allowed by name (loopback is never reachable otherwise). A second site is not allowed.
let site: WebSite;
let other: WebSite;
let server: RunningServer;
const clients: EnvClient[] = [];
beforeAll(async () => {
  other = await startWebSite();
  site = await startWebSite(`${other.origin}/`);
  // Port 9 (discard) is allowed but nothing listens there: a start page that does not load.
  server = await startTestServer({ allowedOrigins: [site.origin, 'http://127.0.0.1:9'] });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await site?.close();
  await other?.close();
});
afterEach(async () => void (await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)))));

const connect = (transport: TransportName = 'http') => {
  const url =
    transport === 'grpc' ? server.grpcUrl : transport === 'ws' ? server.url.replace(/^http/, 'ws') : server.url;
  const client = createEnvClient(url);
  clients.push(client);
  return client;
};
const bidOf = (result: StepResult, name: string) => {
  const bid = new RegExp(`\\[(\\w+)\\] link '${name}'`).exec(result.observation.axtree_txt)?.[1];
  if (!bid) throw new Error(`no link ${name} in\n${result.observation.axtree_txt}`);
  return bid;
};
const resetWeb = (client: EnvClient, options: Record<string, unknown>) =>
  client.reset({
    task_name: 'web',
    seed: 0,
    options: { url: `${site.origin}/`, goal: 'Place an order; say its number.', ...options },
  });

describe('the web task', () => {
  it.each(['http', 'ws', 'grpc'] as const)(
    'over %s: starts on the allowed page with the goal, ends on send_msg_to_user, judged by the goal spec',
    async (transport) => {
      const client = connect(transport);
      let result = await resetWeb(client, {
        success_url: '/order$',
        success_text: 'Order \\d+ placed',
        answer: '\\b42\\b',
      });
      expect(result.observation).toMatchObject({ url: `${site.origin}/`, goal: 'Place an order; say its number.' });
      expect(taskInfo(result)).toEqual({ judged: true });
      result = await client.step(`click('${bidOf(result, 'Place order')}')`);
      expect(result).toMatchObject({ done: false, reward: 0 });
      expect(result.observation.url).toBe(`${site.origin}/order`);
      result = await client.step("send_msg_to_user('It is order 42.')");
      expect(result).toMatchObject({ done: true, reward: 1 });
      expect(result.metadata.browsergym_info).toMatchObject({ raw_reward: 1, terminated: true, truncated: false });
      expect(taskInfo(result)).toEqual({
        judged: true,
        answer: 'It is order 42.',
        infeasible: false,
        checks: { success_url: true, success_text: true, answer: true },
      });
    },
  );

  it('a wrong answer or a report_infeasible fails (reward 0), with the checks that did not hold', async () => {
    const client = connect();
    await resetWeb(client, { answer: '^42$' });
    const wrong = await client.step("send_msg_to_user('41')");
    expect(wrong).toMatchObject({ done: true, reward: 0 });
    expect(wrong.metadata.browsergym_info).toMatchObject({
      raw_reward: 0,
      task_reason: 'answer does not match the answer',
    });
    await resetWeb(client, { success_url: '/order' });
    const gaveUp = await client.step("report_infeasible('no shop here')");
    expect(gaveUp).toMatchObject({ done: true, reward: 0 });
    expect(taskInfo(gaveUp)).toMatchObject({ judged: true, infeasible: true, checks: { success_url: false } });
  });

  it('without a goal spec the episode reports judged: false, and runEpisode calls it unjudged (reward 0)', async () => {
    const client = connect();
    const policy = scriptedPolicy(
      'test',
      () => (turn) => (turn.index === 0 ? `click('${bidOf(turn.result, 'Place order')}')` : "send_msg_to_user('done')"),
    );
    const trajectory = await runEpisode(client, policy, {
      task: 'web',
      seed: 0,
      resetOptions: { url: `${site.origin}/`, goal: 'Place an order.' },
    });
    expect(trajectory).toMatchObject({ outcome: 'unjudged', reward: 0, error: null });
    expect(trajectory.turns).toHaveLength(2);
    expect(trajectory.final_task_info).toMatchObject({ judged: false, answer: 'done' });
  });

  it('max_steps truncates the episode; state reports it', async () => {
    const client = connect();
    await resetWeb(client, { max_steps: 2 });
    expect(await client.state()).toMatchObject({ task_name: 'web.web', max_steps: 2 });
    expect(await client.step('noop(0)')).toMatchObject({ done: false });
    const last = await client.step('noop(0)');
    expect(last).toMatchObject({ done: true, reward: 0 });
    expect(last.metadata.browsergym_info).toMatchObject({ truncated: true, terminated: false });
  });

  it('a refused origin, a redirect to one, and loopback not named: OriginRefusedError at options.url; the session goes on', async () => {
    const client = connect();
    for (const url of [
      `${other.origin}/`,
      `${site.origin}/away`,
      'http://localhost:6379/',
      'http://169.254.169.254/',
    ]) {
      const error = await resetWeb(client, { url }).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(OriginRefusedError);
      expect((error as OriginRefusedError).message, url).toMatch(/^options\.url: Navigation to .* is blocked/);
    }
    await expect(resetWeb(client, {})).resolves.toMatchObject({ done: false });
  });

  it('bad options are a ValidationError naming the option: no url, a bad regex, an unknown key, a page that does not load', async () => {
    const client = connect();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: undefined }, /options\.url/],
      [{ url: 'ftp://x/' }, /options\.url: must be an absolute http/],
      [{ success_text: '(' }, /options\.success_text: not a valid regular expression/],
      [{ answer: 'x'.repeat(501) }, /options\.answer/],
      [{ start_step: 2 }, /start_step/],
    ];
    for (const [options, message] of cases) {
      const error = await resetWeb(client, options).catch((e: unknown) => e);
      expect(error, String(message)).toBeInstanceOf(ValidationError);
      expect(error, String(message)).not.toBeInstanceOf(OriginRefusedError);
      expect((error as Error).message).toMatch(message);
    }
    const unreachable = await resetWeb(client, { url: 'http://127.0.0.1:9/' }).catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(ValidationError);
    expect(unreachable).not.toBeInstanceOf(OriginRefusedError);
    expect((unreachable as Error).message).toMatch(/^options\.url: the start page did not load \(net::ERR_/);
  });
});
