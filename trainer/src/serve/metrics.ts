import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServeContext } from './context.js';
import { sendText } from './http-io.js';

/** GET /metrics in Prometheus text format (vLLM-style names under `gauntlet:`). */
export function metrics(ctx: ServeContext, _body: unknown, _req: IncomingMessage, res: ServerResponse): void {
  const s = ctx.engine.stats;
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string, value: number) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`);
  metric('gauntlet:num_requests_waiting', 'gauge', 'Sequences queued behind the running batch.', s.queueDepth);
  metric('gauntlet:batch_size', 'gauge', 'Rows in the last forward step.', s.lastBatchSize);
  metric('gauntlet:requests_rejected_total', 'counter', 'Sequences refused because the queue was full.', s.rejected);
  metric('gauntlet:prompt_tokens_total', 'counter', 'Prompt tokens prefilled.', s.promptTokens);
  metric('gauntlet:generation_tokens_total', 'counter', 'Tokens produced by decode steps.', s.generatedTokens);
  metric('gauntlet:decode_tokens_per_second', 'gauge', 'Decode tokens per second of decode-step time, since start.', s.decodeTokensPerSecond);
  lines.push('# HELP gauntlet:time_to_first_token_seconds Time from submission to the first sampled token.', '# TYPE gauntlet:time_to_first_token_seconds histogram');
  s.ttftBuckets.forEach((b, i) => lines.push(`gauntlet:time_to_first_token_seconds_bucket{le="${b}"} ${s.ttftCounts[i]}`));
  lines.push(`gauntlet:time_to_first_token_seconds_bucket{le="+Inf"} ${s.ttftCount}`, `gauntlet:time_to_first_token_seconds_sum ${s.ttftSum}`, `gauntlet:time_to_first_token_seconds_count ${s.ttftCount}`);
  sendText(res, 200, `${lines.join('\n')}\n`, 'text/plain; version=0.0.4');
}
