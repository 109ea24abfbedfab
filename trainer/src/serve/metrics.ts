import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Registry } from 'prom-client';
import type { GenerationEngine } from '../generate/engine.js';
import type { ServeContext } from './context.js';
import { sendText } from './http-io.js';

/** GET /metrics in Prometheus text format (vLLM-style names under `gauntlet:`). */
export async function metrics(ctx: ServeContext, _body: unknown, _req: IncomingMessage, res: ServerResponse) {
  const registry = engineRegistry(ctx.engine);
  sendText(res, 200, await registry.metrics(), registry.contentType);
}

/** The engine's figures in Prometheus text format (also appended to the GRPO run's /metrics). */
export function metricsText(ctx: ServeContext): Promise<string> {
  return engineRegistry(ctx.engine).metrics();
}

type Figure = [kind: 'gauge' | 'counter', name: string, help: string, read: (engine: GenerationEngine) => number];

// The prefix cache's figures read 0 when it is off, so dashboards see the same series either way.
const FIGURES: Figure[] = [
  ['gauge', 'num_requests_waiting', 'Sequences queued behind the running batch.', (e) => e.stats.queueDepth],
  ['gauge', 'batch_size', 'Rows in the last forward step.', (e) => e.stats.lastBatchSize],
  ['counter', 'requests_rejected_total', 'Sequences refused because the queue was full.', (e) => e.stats.rejected],
  ['counter', 'prompt_tokens_total', 'Prompt tokens prefilled.', (e) => e.stats.promptTokens],
  ['counter', 'generation_tokens_total', 'Tokens produced by decode steps.', (e) => e.stats.generatedTokens],
  // Engine step time by kind, so a client can split its policy time into prefill and decode.
  [
    'counter',
    'prefill_seconds_total',
    'Seconds of forward steps that prefilled prompts.',
    (e) => e.stats.prefillSeconds,
  ],
  ['counter', 'decode_seconds_total', 'Seconds of decode steps.', (e) => e.stats.decodeSeconds],
  [
    'counter',
    'prefix_cache_lookups_total',
    'Prompts looked up in the prefix cache.',
    (e) => e.prefixCache?.stats.lookups ?? 0,
  ],
  ['counter', 'prefix_cache_hits_total', 'Prompts that reused a cached prefix.', (e) => e.prefixCache?.stats.hits ?? 0],
  [
    'counter',
    'prefix_cache_query_tokens_total',
    'Prompt tokens looked up in the prefix cache.',
    (e) => e.prefixCache?.stats.queryTokens ?? 0,
  ],
  [
    'counter',
    'prefix_cache_hit_tokens_total',
    'Prompt tokens taken from the prefix cache instead of prefilled.',
    (e) => e.prefixCache?.stats.hitTokens ?? 0,
  ],
  [
    'counter',
    'prefix_cache_evicted_blocks_total',
    'Prefix-cache blocks dropped to make room, least recently used first.',
    (e) => e.prefixCache?.stats.evictedBlocks ?? 0,
  ],
  ['gauge', 'prefix_cache_tokens', 'Tokens the prefix cache holds.', (e) => e.prefixCache?.cachedTokens ?? 0],
  [
    'gauge',
    'prefix_cache_capacity_tokens',
    'Tokens the prefix cache may hold (0 = off).',
    (e) => e.prefixCache?.capacityTokens ?? 0,
  ],
  [
    'gauge',
    'decode_tokens_per_second',
    'Decode tokens per second of decode-step time, since start.',
    (e) => e.stats.decodeTokensPerSecond,
  ],
];

const registries = new WeakMap<GenerationEngine, Registry>();

/**
 * One registry per engine, read at scrape time: each figure is a running total or a reading the
 * engine keeps anyway; the time to first token is the histogram the engine observes itself.
 */
function engineRegistry(engine: GenerationEngine): Registry {
  const known = registries.get(engine);
  if (known) return known;
  const registry = new Registry();
  const registers = [registry];
  for (const [kind, name, help, read] of FIGURES) {
    if (kind === 'gauge')
      new Gauge({
        name: `gauntlet:${name}`,
        help,
        registers,
        collect() {
          this.set(read(engine));
        },
      });
    else
      new Counter({
        name: `gauntlet:${name}`,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read(engine));
        },
      });
  }
  registry.registerMetric(engine.stats.ttft);
  registries.set(engine, registry);
  return registry;
}
