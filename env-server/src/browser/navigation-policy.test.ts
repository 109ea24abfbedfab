import { describe, expect, it } from 'vitest';
import { TASK_ORIGIN } from './site.js';
import { hopRefusal, navigationRefusal, type NavigationPolicy } from './navigation-policy.js';

const strict: NavigationPolicy = { extra: [], allowDataUrls: false };
const open: NavigationPolicy = { extra: ['*'], allowDataUrls: true };

describe('navigationRefusal', () => {
  it('lets goto reach the task origin and about:blank', () => {
    expect(navigationRefusal(`${TASK_ORIGIN}/miniwob/click-test.html`, strict)).toBeUndefined();
    expect(navigationRefusal('about:blank', strict)).toBeUndefined();
  });

  it.each([
    'data:text/html,<script>alert(1)</script>',
    'DATA:text/html,x',
    ' data:text/html,x',
    'blob:null/abc',
    `blob:${TASK_ORIGIN}/0b3c`,
  ])("refuses %j by default: it would run the agent's JavaScript", (url) => {
    expect(navigationRefusal(url, strict)).toMatch(
      /^Navigation to (data|blob): URLs is blocked: they would run page JavaScript \(the operator can allow them with --allow-data-urls\)$/,
    );
  });

  it('opens data: and blob: URLs when the operator allows them', () => {
    expect(navigationRefusal('data:text/html,<p>hi</p>', { extra: [], allowDataUrls: true })).toBeUndefined();
    expect(navigationRefusal('blob:null/abc', { extra: [], allowDataUrls: true })).toBeUndefined();
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'file:///etc/passwd',
    'filesystem:http://tasks.gauntlet.test/temporary/x',
  ])('never opens %j, whatever the operator allows', (url) => {
    expect(navigationRefusal(url, open)).toMatch(/^Navigation to (javascript|file|filesystem): URLs is blocked$/);
  });

  it('keeps other origins behind --allow-origin, and shows a long URL cut short', () => {
    expect(navigationRefusal('http://127.0.0.1:6379/', strict)).toBe(
      'Navigation to http://127.0.0.1:6379/ is blocked: only the task origin is allowed (the operator can allow more origins with --allow-origin)',
    );
    expect(
      navigationRefusal('http://127.0.0.1:6379/', { extra: ['http://127.0.0.1:6379'], allowDataUrls: false }),
    ).toBeUndefined();
    const long = `http://example.com/${'a'.repeat(5000)}`;
    expect(navigationRefusal(long, strict)!.length).toBeLessThan(400);
  });

  it('refuses URLs with credentials: the origin would read as allowed while the request went out as written', () => {
    for (const url of ['http://127.0.0.1%2F@tasks.gauntlet.test/', `http://user:pw@tasks.gauntlet.test/`])
      expect(navigationRefusal(url, open), url).toBe('Navigation to URLs with credentials (user:password@) is blocked');
  });

  it('does not read * as loopback: the env server and its neighbours are reached only when named', () => {
    for (const url of ['http://127.0.0.1:8080/metrics', 'http://localhost:6379/', 'http://[::1]:8080/'])
      expect(navigationRefusal(url, open), url).toMatch(/is blocked: only the task origin is allowed/);
    expect(navigationRefusal('http://example.com/', open)).toBeUndefined();
  });
});

describe('hopRefusal', () => {
  it('refuses the hops routes and the egress proxy stop, and file: frames; nothing else makes a request', () => {
    expect(hopRefusal('http://127.0.0.1:1/', strict)).toMatch(/^Navigation to http:\/\/127.0.0.1:1\/ is blocked/);
    expect(hopRefusal('https://localhost/', { extra: ['*'] })).toMatch(/is blocked/);
    expect(hopRefusal('file:///etc/passwd', open)).toBe('Navigation to file: URLs is blocked');
    expect(hopRefusal(`${TASK_ORIGIN}/x`, strict)).toBeUndefined();
    expect(hopRefusal('http://127.0.0.1:1/', { extra: ['http://127.0.0.1:1'] })).toBeUndefined();
    expect(hopRefusal('about:blank', strict)).toBeUndefined();
    expect(hopRefusal('data:text/html,x', strict)).toBeUndefined();
  });
});
