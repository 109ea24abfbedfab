import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServeContext } from './context.js';
import { sendText } from './http-io.js';

/** GET /metrics in Prometheus text format (vLLM-style names under `gauntlet:`). */
export function metrics(ctx: ServeContext, _body: unknown, _req: IncomingMessage, res: ServerResponse): void {
  sendText(res, 200, metricsText(ctx), 'text/plain; version=0.0.4');
}

/** The engine's figures in Prometheus text format (also appended to the GRPO run's /metrics). */
export function metricsText(ctx: ServeContext): string {
  const s = ctx.engine.stats;
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string, value: number) =>
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`);
  metric('gauntlet:num_requests_waiting', 'gauge', 'Sequences queued behind the running batch.', s.queueDepth);
  metric('gauntlet:batch_size', 'gauge', 'Rows in the last forward step.', s.lastBatchSize);
  metric('gauntlet:requests_rejected_total', 'counter', 'Sequences refused because the queue was full.', s.rejected);
  metric('gauntlet:prompt_tokens_total', 'counter', 'Prompt tokens prefilled.', s.promptTokens);
  metric('gauntlet:generation_tokens_total', 'counter', 'Tokens produced by decode steps.', s.generatedTokens);
  // The prefix cache's figures read 0 when it is off, so dashboards see the same series either way.
  const prefix = ctx.engine.prefixCache;
  metric(
    'gauntlet:prefix_cache_lookups_total',
    'counter',
    'Prompts looked up in the prefix cache.',
    prefix?.stats.lookups ?? 0,
  );
  metric(
    'gauntlet:prefix_cache_hits_total',
    'counter',
    'Prompts that reused a cached prefix.',
    prefix?.stats.hits ?? 0,
  );
  metric(
    'gauntlet:prefix_cache_query_tokens_total',
    'counter',
    'Prompt tokens looked up in the prefix cache.',
    prefix?.stats.queryTokens ?? 0,
  );
  metric(
    'gauntlet:prefix_cache_hit_tokens_total',
    'counter',
    'Prompt tokens taken from the prefix cache instead of prefilled.',
    prefix?.stats.hitTokens ?? 0,
  );
  metric(
    'gauntlet:prefix_cache_evicted_blocks_total',
    'counter',
    'Prefix-cache blocks dropped to make room, least recently used first.',
    prefix?.stats.evictedBlocks ?? 0,
  );
  metric('gauntlet:prefix_cache_tokens', 'gauge', 'Tokens the prefix cache holds.', prefix?.cachedTokens ?? 0);
  metric(
    'gauntlet:prefix_cache_capacity_tokens',
    'gauge',
    'Tokens the prefix cache may hold (0 = off).',
    prefix?.capacityTokens ?? 0,
  );
  metric(
    'gauntlet:decode_tokens_per_second',
    'gauge',
    'Decode tokens per second of decode-step time, since start.',
    s.decodeTokensPerSecond,
  );
  lines.push(
    '# HELP gauntlet:time_to_first_token_seconds Time from submission to the first sampled token.',
    '# TYPE gauntlet:time_to_first_token_seconds histogram',
  );
  s.ttftBuckets.forEach((b, i) =>
    lines.push(`gauntlet:time_to_first_token_seconds_bucket{le="${b}"} ${s.ttftCounts[i]}`),
  );
  lines.push(
    `gauntlet:time_to_first_token_seconds_bucket{le="+Inf"} ${s.ttftCount}`,
    `gauntlet:time_to_first_token_seconds_sum ${s.ttftSum}`,
    `gauntlet:time_to_first_token_seconds_count ${s.ttftCount}`,
  );
  return `${lines.join('\n')}\n`;
}
