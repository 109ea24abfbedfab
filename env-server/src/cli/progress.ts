/** One line per finished episode on the command's stderr (stdout stays clean for --json), with a running tally. */
export class Progress {
  private done = 0;
  private ok = 0;
  private readonly started = performance.now();

  constructor(
    private readonly label: string,
    private readonly total: number,
    /** The command's stderr (its CommandIo.err). */
    private readonly err: (line: string) => void,
  ) {}

  episode(success: boolean, detail: string): void {
    this.done += 1;
    if (success) this.ok += 1;
    const elapsed = (performance.now() - this.started) / 1000;
    const eta =
      this.done < this.total ? `, ~${Math.round((elapsed / this.done) * (this.total - this.done))} s left` : '';
    this.err(
      `[${this.label}] ${this.done}/${this.total} ${success ? 'ok  ' : 'FAIL'} ${detail} (${this.ok}/${this.done} solved, ${elapsed.toFixed(1)} s${eta})`,
    );
  }

  note(text: string): void {
    this.err(`[${this.label}] ${text}`);
  }
}

/** Seconds since `started` (a performance.now() reading), to 0.1 s. */
export function seconds(started: number): number {
  return Math.round((performance.now() - started) / 100) / 10;
}

/** `N records/s` over the time since `started`: what a collect run reports for its speed. */
export function rate(records: number, started: number): string {
  const elapsed = Math.max(1e-3, (performance.now() - started) / 1000);
  return `${(records / elapsed).toFixed(1)} records/s over ${seconds(started)} s`;
}
