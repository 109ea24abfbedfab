import { within } from '@gauntlet/proto/deadline';
import type { PageDeadline } from '../deadline/page-deadline.js';

/**
 * How long work that outlived its deadline (or was cancelled) may take to wind down. Everything a
 * step awaits races its deadline, so healthy work unwinds at once; what is still running after
 * this is a browser call that will not answer, and the page is given up on.
 */
export const OVERRUN_GRACE_MS = 2_000;

/**
 * Runs `body` under `deadline` and settles with its result, or with the deadline's reason once the
 * deadline ended and the body wound down. The wind-down is bounded by `graceMs`: when the body or
 * one of its input commands (PageDeadline.command) is still pending then, `onWedged` runs (the session
 * recycles its browser context) and this settles anyway. So whoever holds a slot for this call
 * (the session's queue) holds it until the deadline plus the grace at most, never forever.
 */
export async function supervise<T>(
  deadline: PageDeadline,
  body: (deadline: PageDeadline) => Promise<T>,
  onWedged: () => Promise<void>,
  graceMs = OVERRUN_GRACE_MS,
): Promise<T> {
  deadline.throwIfAborted();
  const work = body(deadline);
  try {
    return await deadline.race(work);
  } finally {
    if (deadline.aborted) {
      const unwound = work.then(
        () => true,
        () => true,
      );
      const calm = await within(
        Promise.all([unwound, deadline.quiet(graceMs)]).then(([, quiet]) => quiet),
        graceMs,
      );
      if (calm !== true) await onWedged();
    }
    deadline.dispose();
  }
}
