import { describe, expect, it } from 'vitest';
import { EpisodeJob, GroupJob, QUEUES, SEED_STRIDE, episodeJobs } from './jobs.js';

const group = (extra: Record<string, unknown> = {}) =>
  GroupJob.parse({
    group_id: 'step12-click-test-4',
    task: 'click-test',
    seed: 4,
    size: 3,
    policy: { model: 'tiny', adapter: 'grpo', version: 12 },
    settings: { sampling: { seed: 7 } },
    submitted_at: new Date(0).toISOString(),
    ...extra,
  });

describe('job payloads', () => {
  it('fill in the episode settings defaults', () => {
    expect(group().settings).toEqual({
      max_turns: 30,
      deadline_ms: 600_000,
      sampling: { temperature: 1, top_p: 1, top_k: -1, max_tokens: 64, seed: 7 },
      context_tokens: null,
      observation_chars: null,
      observation_format: 'axtree',
      constrained: false,
      action_names: null,
      bid_choices: false,
      text_choices: false,
      reset_options: {},
    });
  });

  it('takes an observation format by name and refuses an unknown one', () => {
    expect(group({ settings: { observation_format: 'pruned' } }).settings.observation_format).toBe('pruned');
    expect(() => group({ settings: { observation_format: 'html' } })).toThrow(/observation_format/);
  });

  it('narrowing constrained decoding without turning it on is refused by name', () => {
    expect(() => group({ settings: { bid_choices: true } })).toThrow(/set constrained too/);
    expect(() => group({ settings: { text_choices: true } })).toThrow(/set constrained too/);
    expect(() => group({ settings: { action_names: ['click'] } })).toThrow(/set constrained too/);
    expect(() => group({ settings: { constrained: true, action_names: ['eval'] } })).toThrow();
    const narrowed = group({ settings: { constrained: true, action_names: ['click'], bid_choices: true } }).settings;
    expect([narrowed.action_names, narrowed.bid_choices]).toEqual([['click'], true]);
  });

  it('a group expands into G episode jobs with ids derived from the group id and distinct sampling seeds', () => {
    const jobs = episodeJobs(group());
    expect(jobs.map((j) => j.episode_id)).toEqual([
      'step12-click-test-4.0',
      'step12-click-test-4.1',
      'step12-click-test-4.2',
    ]);
    expect(jobs.map((j) => j.settings.sampling.seed)).toEqual([7, 7 + SEED_STRIDE, 7 + 2 * SEED_STRIDE]);
    expect(episodeJobs(group())).toEqual(jobs);
    for (const job of jobs) expect(EpisodeJob.parse(job)).toEqual(job);
    expect(episodeJobs(group({ settings: {} })).map((j) => j.settings.sampling.seed)).toEqual([null, null, null]);
  });

  it('reject ids BullMQ cannot take and payloads that do not add up', () => {
    expect(() => group({ group_id: 'a:b' })).toThrow(/letters, digits/);
    expect(() => group({ group_id: 'x'.repeat(101) })).toThrow(/at most 100 characters/);
    expect(() => group({ size: 0 })).toThrow();
    expect(() => group({ settings: { max_turns: 0 } })).toThrow();
    expect(() => group({ surprise: true })).toThrow();
    const [job] = episodeJobs(group());
    expect(EpisodeJob.safeParse({ ...job, episode_id: 'other.0' }).error?.issues[0]?.message).toBe(
      'episode_id must be <group_id>.<index>',
    );
  });

  it('bound what a payload may hold: reset_options depth and size, task names, replies within the context', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 3000; i++) deep = { d: deep };
    expect(() => group({ settings: { reset_options: deep } })).toThrow(/nests more than 16 levels deep/);
    expect(() => group({ settings: { reset_options: { blob: 'x'.repeat(70_000) } } })).toThrow(/at most 65536/);
    expect(
      group({ settings: { reset_options: { start_step: 3, nested: { a: [1, { b: 2 }] } } } }).settings,
    ).toBeTruthy();
    expect(() => group({ task: 't'.repeat(257) })).toThrow();
    expect(() => group({ settings: { context_tokens: 128, sampling: { max_tokens: 128 } } })).toThrow(
      /must be below context_tokens/,
    );
    expect(
      group({ settings: { context_tokens: 128, sampling: { max_tokens: 127 } } }).settings.sampling.max_tokens,
    ).toBe(127);
  });

  it('queue names carry no ":" (BullMQ key separator)', () => {
    for (const name of Object.values(QUEUES)) expect(name).toMatch(/^[a-z-]+$/);
  });
});

describe('policy_servers', () => {
  it('is absent by default and, when given, names servers by name or index, never by URL', () => {
    expect(group().settings.policy_servers).toBeUndefined();
    expect(group({ settings: { policy_servers: ['gpu-a', '10.0.0.1:8001', 0] } }).settings.policy_servers).toEqual([
      'gpu-a',
      '10.0.0.1:8001',
      0,
    ]);
    expect(() => group({ settings: { policy_servers: ['http://10.0.0.1:8001'] } })).toThrow(/never a URL/);
    expect(() => group({ settings: { policy_servers: [] } })).toThrow();
    expect(() => group({ settings: { policy_servers: [-1] } })).toThrow();
    expect(() => group({ settings: { policy_urls: ['http://10.0.0.1:8001'] } })).toThrow(/policy_urls/);
  });
});
