import { describe, expect, it, vi } from 'vitest';
import { PageDeadline } from '../deadline/page-deadline.js';
import { supervise } from './supervise.js';

/** A promise that never settles: a browser call that will not answer. */
const never = () => new Promise<void>(() => undefined);

describe('supervise', () => {
  it('returns the result and never calls onWedged for work that finished in time', async () => {
    const onWedged = vi.fn(async () => undefined);
    await expect(supervise(new PageDeadline('step', { ms: 1_000 }), async () => 'done', onWedged, 50)).resolves.toBe(
      'done',
    );
    expect(onWedged).not.toHaveBeenCalled();
  });

  it('settles after the grace and reports the page wedged when a command never answers', async () => {
    const deadline = new PageDeadline('step');
    const onWedged = vi.fn(async () => undefined);
    const running = supervise(deadline, (d) => d.command(never()), onWedged, 30);
    const reason = new Error('deadline');
    deadline.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(onWedged).toHaveBeenCalledOnce();
  });

  it('does not report a wedge when the work unwinds within the grace', async () => {
    const deadline = new PageDeadline('step');
    const onWedged = vi.fn(async () => undefined);
    const running = supervise(deadline, (d) => d.sleep(60_000), onWedged, 1_000);
    deadline.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    expect(onWedged).not.toHaveBeenCalled();
  });

  it('does not start work whose deadline ended while it waited its turn', async () => {
    const deadline = new PageDeadline('step');
    deadline.abort(new Error('too late'));
    const body = vi.fn(async () => 'ran');
    await expect(supervise(deadline, body, async () => undefined)).rejects.toThrow('too late');
    expect(body).not.toHaveBeenCalled();
  });
});
