import { describe, expect, it } from 'vitest';
import type { GenerationEngine } from '../generate/engine.js';
import { EngineStats } from '../generate/stats.js';
import type { ServeContext } from './context.js';
import { metricsText } from './metrics.js';

/** Only what /metrics reads of a serving context: the engine's figures (no model needed). */
function contextWith(engine: Pick<GenerationEngine, 'stats' | 'prefixCache'>): ServeContext {
  return { engine } as unknown as ServeContext;
}

describe('the serving /metrics exposition', () => {
  it('shows every engine figure under its gauntlet: name and type, read at scrape time', async () => {
    const stats = new EngineStats();
    const ctx = contextWith({ stats, prefixCache: undefined });
    const before = await metricsText(ctx);
    expect(before).toMatch(/^# TYPE gauntlet:num_requests_waiting gauge\ngauntlet:num_requests_waiting 0$/m);
    // The prefix cache's series are there, at 0, when it is off.
    expect(before).toMatch(/^gauntlet:prefix_cache_capacity_tokens 0$/m);
    expect(before).toMatch(/^gauntlet:time_to_first_token_seconds_count 0$/m);

    stats.queueDepth = 3;
    stats.rejected = 2;
    stats.recordStep(4, 40, 10, true);
    stats.recordStep(4, 4, 20, false);
    stats.recordFirstToken(30);
    stats.recordFirstToken(2_000);
    const text = await metricsText(ctx);
    const types = Object.fromEntries([...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map(([, n, t]) => [n, t]));
    expect(types).toEqual({
      'gauntlet:num_requests_waiting': 'gauge',
      'gauntlet:batch_size': 'gauge',
      'gauntlet:requests_rejected_total': 'counter',
      'gauntlet:prompt_tokens_total': 'counter',
      'gauntlet:generation_tokens_total': 'counter',
      'gauntlet:prefill_seconds_total': 'counter',
      'gauntlet:decode_seconds_total': 'counter',
      'gauntlet:prefix_cache_lookups_total': 'counter',
      'gauntlet:prefix_cache_hits_total': 'counter',
      'gauntlet:prefix_cache_query_tokens_total': 'counter',
      'gauntlet:prefix_cache_hit_tokens_total': 'counter',
      'gauntlet:prefix_cache_evicted_blocks_total': 'counter',
      'gauntlet:prefix_cache_tokens': 'gauge',
      'gauntlet:prefix_cache_capacity_tokens': 'gauge',
      'gauntlet:decode_tokens_per_second': 'gauge',
      'gauntlet:time_to_first_token_seconds': 'histogram',
    });
    const value = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('gauntlet:num_requests_waiting')).toBe(3);
    expect(value('gauntlet:batch_size')).toBe(4);
    expect(value('gauntlet:requests_rejected_total')).toBe(2);
    expect(value('gauntlet:prompt_tokens_total')).toBe(40);
    expect(value('gauntlet:generation_tokens_total')).toBe(4);
    expect(value('gauntlet:prefill_seconds_total')).toBeCloseTo(0.01);
    expect(value('gauntlet:decode_seconds_total')).toBeCloseTo(0.02);
    expect(value('gauntlet:decode_tokens_per_second')).toBe(200);
    expect(value('gauntlet:time_to_first_token_seconds_bucket\\{le="0.05"\\}')).toBe(1);
    expect(value('gauntlet:time_to_first_token_seconds_bucket\\{le="2.5"\\}')).toBe(2);
    expect(value('gauntlet:time_to_first_token_seconds_bucket\\{le="\\+Inf"\\}')).toBe(2);
    expect(value('gauntlet:time_to_first_token_seconds_sum')).toBeCloseTo(2.03);
    expect(value('gauntlet:time_to_first_token_seconds_count')).toBe(2);
  });

  it('keeps each engine apart: a second engine starts from zero', async () => {
    const busy = new EngineStats();
    busy.rejected = 5;
    busy.recordFirstToken(10);
    await metricsText(contextWith({ stats: busy, prefixCache: undefined }));
    const fresh = await metricsText(contextWith({ stats: new EngineStats(), prefixCache: undefined }));
    expect(fresh).toMatch(/^gauntlet:requests_rejected_total 0$/m);
    expect(fresh).toMatch(/^gauntlet:time_to_first_token_seconds_count 0$/m);
  });
});
