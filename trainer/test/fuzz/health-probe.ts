import { Worker } from 'node:worker_threads';

/** The probe loop, on a thread of its own: the test's own work (building 7 MB bodies) must not delay a probe. */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const latencies = [];
let failures = 0;
let running = true;
parentPort.on('message', () => (running = false));
(async () => {
  while (running) {
    const started = performance.now();
    try {
      const reply = await fetch(workerData.url + '/health', { signal: AbortSignal.timeout(10000) });
      await reply.arrayBuffer();
      if (reply.status !== 200) failures += 1;
    } catch {
      failures += 1;
    }
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, workerData.intervalMs));
  }
  parentPort.postMessage({ latencies, failures });
})();
`;

export interface HealthSummary {
  probes: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Asks GET /health every `intervalMs` for as long as a fuzz run lasts and keeps each latency: a
 * stalled event loop shows up as slow probes, a dead server as failures.
 */
export class HealthProbe {
  private readonly worker: Worker;
  private readonly done: Promise<{ latencies: number[]; failures: number }>;

  constructor(url: string, intervalMs = 20) {
    this.worker = new Worker(PROBE, { eval: true, workerData: { url, intervalMs } });
    this.done = new Promise((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
    });
  }

  async stop(): Promise<HealthSummary> {
    this.worker.postMessage('stop');
    const { latencies, failures } = await this.done;
    await this.worker.terminate();
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { probes: sorted.length, failures, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
  }
}
