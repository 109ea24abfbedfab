/**
 * Asks `/health` every `intervalMs` while a fuzz run goes on and keeps every latency, so a test
 * can say the server never stopped answering (a frozen event loop shows up as one slow probe).
 */
export class HealthProbe {
  private readonly latencies: number[] = [];
  private failures = 0;
  private running = true;
  private readonly loop: Promise<void>;

  constructor(url: string, intervalMs = 25) {
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        try {
          const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(10_000) });
          await response.text();
          if (!response.ok) this.failures += 1;
        } catch {
          this.failures += 1;
        }
        this.latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    })();
  }

  async stop(): Promise<{ probes: number; failures: number; p50: number; p99: number; max: number }> {
    this.running = false;
    await this.loop;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { probes: sorted.length, failures: this.failures, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
  }
}
