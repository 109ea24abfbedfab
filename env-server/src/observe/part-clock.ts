const round = (ms: number) => Math.round(ms * 100) / 100;

/** Per-part wall-clock timings of one observation, in milliseconds (two decimals). */
export class PartClock {
  private readonly start = performance.now();
  private readonly parts: Record<string, number> = {};

  /** Times async work under `part` (its failure still records the time spent). */
  async time<T>(part: string, work: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      this.parts[part] = round((this.parts[part] ?? 0) + performance.now() - t0);
    }
  }

  /** Adds synchronous work to `part`'s time. */
  add<T>(part: string, work: () => T): T {
    const t0 = performance.now();
    const result = work();
    this.parts[part] = round((this.parts[part] ?? 0) + performance.now() - t0);
    return result;
  }

  /** The timings so far plus `total` since the clock started. */
  done(): Record<string, number> {
    return { ...this.parts, total: round(performance.now() - this.start) };
  }
}
