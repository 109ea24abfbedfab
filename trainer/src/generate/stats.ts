import { Histogram } from 'prom-client';

/** Running figures of a GenerationEngine, read by the server's /metrics. */
export class EngineStats {
  queueDepth = 0;
  lastBatchSize = 0;
  rejected = 0;
  steps = 0;
  promptTokens = 0;
  generatedTokens = 0;
  /** Seconds spent in decode steps and in prefill steps. */
  decodeSeconds = 0;
  prefillSeconds = 0;
  /**
   * Time to first token (seconds), kept as the Prometheus histogram the server's /metrics shows:
   * a histogram cannot be rebuilt from figures at scrape time. In no registry of its own.
   */
  readonly ttft = new Histogram({
    name: 'gauntlet:time_to_first_token_seconds',
    help: 'Time from submission to the first sampled token.',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  });

  recordStep(rows: number, tokens: number, ms: number, prefill: boolean): void {
    this.steps++;
    this.lastBatchSize = rows;
    if (prefill) {
      this.promptTokens += tokens;
      this.prefillSeconds += ms / 1000;
    } else {
      this.generatedTokens += tokens;
      this.decodeSeconds += ms / 1000;
    }
  }

  recordFirstToken(ms: number): void {
    this.ttft.observe(ms / 1000);
  }

  /** Decode tokens per second of step time. */
  get decodeTokensPerSecond(): number {
    return this.decodeSeconds > 0 ? this.generatedTokens / this.decodeSeconds : 0;
  }
}
