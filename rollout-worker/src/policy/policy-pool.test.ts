import { EpisodeSettings } from '@gauntlet/proto/rollout';
import { describe, expect, it } from 'vitest';
import { PolicyPool } from './policy-pool.js';

const policy = { model: 'tiny', adapter: 'run@v3', version: 3 };

describe('PolicyPool', () => {
  it("takes the worker's own servers in turn when a job names none", () => {
    const pool = new PolicyPool(['http://a:1', 'http://b:2']);
    const settings = EpisodeSettings.parse({});
    expect([0, 1, 2].map(() => pool.forEpisode(policy, settings).server)).toEqual([
      'http://a:1',
      'http://b:2',
      'http://a:1',
    ]);
  });

  it("samples only from the job's policy_urls (the trainer's rotation) when it lists them", () => {
    const pool = new PolicyPool(['http://a:1']);
    const settings = EpisodeSettings.parse({ policy_urls: ['http://c:3', 'http://d:4'] });
    const servers = [0, 1, 2, 3].map(() => pool.forEpisode(policy, settings).server);
    expect(new Set(servers)).toEqual(new Set(['http://c:3', 'http://d:4']));
    expect(servers).not.toContain('http://a:1');
  });

  it('a random-policy worker still plays the random baseline without policy_urls', () => {
    const pool = new PolicyPool(['random']);
    expect(pool.forEpisode(policy, EpisodeSettings.parse({})).server).toBe('random');
  });
});
