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
  /** Time to first token, a Prometheus histogram (seconds). */
  readonly ttftBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  readonly ttftCounts = new Array<number>(this.ttftBuckets.length).fill(0);
  ttftSum = 0;
  ttftCount = 0;

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
    const s = ms / 1000;
    this.ttftSum += s;
    this.ttftCount++;
    this.ttftBuckets.forEach((b, i) => {
      if (s <= b) this.ttftCounts[i]!++;
    });
  }

  /** Decode tokens per second of step time. */
  get decodeTokensPerSecond(): number {
    return this.decodeSeconds > 0 ? this.generatedTokens / this.decodeSeconds : 0;
  }
}
