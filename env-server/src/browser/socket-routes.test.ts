import { describe, expect, it } from 'vitest';
import { isSocketAllowed } from './socket-routes.js';

describe('isSocketAllowed', () => {
  it('allows the task origin and the ws(s) twin of an origin the operator allowed', () => {
    expect(isSocketAllowed('ws://tasks.gauntlet.test/live', { extra: [] })).toBe(true);
    expect(isSocketAllowed('ws://localhost:3000/socket', { extra: ['http://localhost:3000'] })).toBe(true);
    expect(isSocketAllowed('wss://app.example/socket', { extra: ['https://app.example'] })).toBe(true);
    expect(isSocketAllowed('wss://app.example/socket', { extra: ['wss://app.example'] })).toBe(true);
    expect(isSocketAllowed('ws://anything.example:1/', { extra: ['*'] })).toBe(true);
  });

  it('refuses every other host, port or scheme', () => {
    expect(isSocketAllowed('ws://127.0.0.1:6379/', { extra: [] })).toBe(false);
    expect(isSocketAllowed('ws://localhost:3001/socket', { extra: ['http://localhost:3000'] })).toBe(false);
    expect(isSocketAllowed('ws://app.example/socket', { extra: ['https://app.example'] })).toBe(false);
    expect(isSocketAllowed('http://tasks.gauntlet.test/', { extra: ['*'] })).toBe(false);
    expect(isSocketAllowed('not a url', { extra: ['*'] })).toBe(false);
  });

  it('allows an origin a task registered for its context, only that one', () => {
    const ours = new Set(['ws://127.0.0.1:41234']);
    expect(isSocketAllowed('ws://127.0.0.1:41234/gauntlet/code', { extra: [] }, ours)).toBe(true);
    expect(isSocketAllowed('ws://127.0.0.1:41235/gauntlet/code', { extra: [] }, ours)).toBe(false);
  });
});
