import { describe, expect, it } from 'vitest';
import { PageDeadline } from './page-deadline.js';

/** A promise settled by hand: stands in for a browser call that answers late or never. */
function pending<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

describe('PageDeadline', () => {
  it('command races like race: the value while it runs, the reason once it ends', async () => {
    const deadline = new PageDeadline('step');
    await expect(deadline.command(Promise.resolve(3))).resolves.toBe(3);
    const reason = new Error('deadline');
    const raced = deadline.command(pending().promise);
    deadline.abort(reason);
    await expect(raced).rejects.toBe(reason);
  });

  it('quiet tells commands that answered after the abort from commands that never answer', async () => {
    const deadline = new PageDeadline('step');
    expect(await deadline.quiet(1_000)).toBe(true);
    const slow = pending();
    const stuck = pending();
    deadline.command(slow.promise).catch(() => undefined);
    deadline.abort(new Error('deadline'));
    slow.resolve();
    expect(await deadline.quiet(1_000)).toBe(true);
    deadline.command(stuck.promise).catch(() => undefined);
    expect(await deadline.quiet(20)).toBe(false);
  });
});
