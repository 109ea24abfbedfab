import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortOn } from './abort-on.js';

describe('abortOn', () => {
  it('aborts when the event comes, with the reason given', () => {
    const source = new EventEmitter();
    const reason = new Error('client went away');
    const signal = abortOn(source, 'close', { reason: () => reason });
    expect(signal.aborted).toBe(false);
    source.emit('close');
    expect(signal.reason).toBe(reason);
    expect(source.listenerCount('close')).toBe(0);
  });

  it('ignores the event when `when` says it is no cancellation', () => {
    const source = new EventEmitter();
    let written = true;
    const signal = abortOn(source, 'close', { when: () => !written });
    source.emit('close');
    expect(signal.aborted).toBe(false);
    written = false;
    const other = abortOn(source, 'close', { when: () => !written });
    source.emit('close');
    expect(other.reason).toMatchObject({ name: 'AbortError' });
  });

  it('is aborted from the start when the event already happened, and listens to nothing', () => {
    const source = new EventEmitter();
    expect(abortOn(source, 'cancelled', { already: true }).aborted).toBe(true);
    expect(source.listenerCount('cancelled')).toBe(0);
  });
});
