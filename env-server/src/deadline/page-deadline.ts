import { Deadline, within } from '@gauntlet/proto/deadline';

/**
 * The deadline of an env operation on a page (a step, a reset, a task setup): proto's Deadline
 * (time limit, abort, the caller's cancellation) that also tracks browser input commands.
 * Browser calls cannot be cancelled, so giving up only stops the waiting; calls raced as
 * `command` stay tracked until they answer, which tells a page that merely got slow from one
 * that stopped answering input (`quiet`).
 */
export class PageDeadline extends Deadline {
  private readonly commands = new Set<Promise<unknown>>();

  /**
   * `race` for a browser command that answers at once on a healthy page (mouse, keyboard): it
   * is tracked until it answers, so `quiet` can tell when the page stopped taking input.
   */
  command<T>(work: Promise<T>): Promise<T> {
    this.commands.add(work);
    const forget = () => this.commands.delete(work);
    work.then(forget, forget);
    return this.race(work);
  }

  /** True once every command has answered; false when some are still unanswered after `graceMs`. */
  async quiet(graceMs: number): Promise<boolean> {
    if (this.commands.size === 0) return true;
    const answered = Promise.allSettled([...this.commands]).then(() => true);
    return (await within(answered, graceMs)) ?? false;
  }
}
