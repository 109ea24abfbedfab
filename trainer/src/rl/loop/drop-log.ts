/** How often, at most, one reason for dropped groups gets a line (ms). */
export const DROP_LOG_EVERY_MS = 30_000;

interface Window {
  /** Drops since this reason's last line, and the latest one's words. */
  count: number;
  latest: string;
  timer: NodeJS.Timeout;
}

/**
 * Says when the workers drop groups, as it happens, without flooding the terminal: the first
 * drop of a reason is one line at once; more of the same reason within `everyMs` are counted
 * and told in one line when the window ends (a quiet window ends the reason's run). Reasons are
 * compared with their ids and numbers blanked, so "episode g-7.2 … attempt 3" and "episode
 * g-9.0 … attempt 3" are one reason.
 */
export class DropLog {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly everyMs = DROP_LOG_EVERY_MS,
  ) {}

  dropped(groupId: string, reason: string): void {
    const key = reason.replaceAll(groupId, '<group>').replace(/\d+/g, '#');
    const open = this.windows.get(key);
    if (open) {
      open.count += 1;
      open.latest = reason;
      return;
    }
    this.log(`group ${groupId} dropped by the workers: ${reason}`);
    this.windows.set(key, { count: 0, latest: reason, timer: this.schedule(key) });
  }

  /** Tells what is still counted and stops the timers (the run's end). */
  close(): void {
    for (const key of [...this.windows.keys()]) this.tell(key, false);
  }

  private schedule(key: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.tell(key, true), this.everyMs);
    timer.unref();
    return timer;
  }

  private tell(key: string, reopen: boolean): void {
    const window = this.windows.get(key)!;
    clearTimeout(window.timer);
    if (window.count === 0) return void this.windows.delete(key);
    this.log(
      `${window.count} more group(s) dropped by the workers in the last ${Math.round(this.everyMs / 1000)} s: ${window.latest}`,
    );
    if (!reopen) return void this.windows.delete(key);
    window.count = 0;
    window.timer = this.schedule(key);
  }
}
