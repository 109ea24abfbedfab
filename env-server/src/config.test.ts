import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';

describe('what pages and uploads may reach', () => {
  it('is closed by default: no data:/blob: navigation, no upload folder', () => {
    expect(resolveConfig({}, {})).toMatchObject({ allowDataUrls: false, uploadDir: undefined });
  });

  it('opens by flag or environment variable, the flag first', () => {
    expect(resolveConfig({ 'allow-data-urls': true, 'upload-dir': '/srv/offered' }, {})).toMatchObject({
      allowDataUrls: true,
      uploadDir: '/srv/offered',
    });
    expect(resolveConfig({}, { GAUNTLET_ALLOW_DATA_URLS: '1', GAUNTLET_UPLOAD_DIR: '/srv/env' })).toMatchObject({
      allowDataUrls: true,
      uploadDir: '/srv/env',
    });
    expect(resolveConfig({ 'upload-dir': '/srv/flag' }, { GAUNTLET_UPLOAD_DIR: '/srv/env' }).uploadDir).toBe(
      '/srv/flag',
    );
  });
});

describe('what a WS/gRPC connection may buffer', () => {
  it('is bounded by default, per connection and per server', () => {
    expect(resolveConfig({}, {})).toMatchObject({
      maxQueuedRequests: 16,
      maxQueuedBytes: 8 * 1024 * 1024,
      maxUnreadReplyBytes: 2 * 1024 * 1024,
      unreadReplyTimeoutMs: 30_000,
      maxBufferedBytes: 64 * 1024 * 1024,
    });
  });

  it('reads flags over environment variables, and a queue needs room for one request', () => {
    const config = resolveConfig(
      { 'max-queued-requests': '4', 'unread-reply-timeout-ms': '5000' },
      { GAUNTLET_MAX_QUEUED_REQUESTS: '9', GAUNTLET_MAX_BUFFERED_BYTES: '1000' },
    );
    expect(config).toMatchObject({ maxQueuedRequests: 4, unreadReplyTimeoutMs: 5000, maxBufferedBytes: 1000 });
    expect(() => resolveConfig({ 'max-queued-requests': '0' }, {})).toThrow(
      /^--max-queued-requests must be an integer ≥ 1 \(got "0"\)$/,
    );
  });
});

describe('how a step settles', () => {
  it('is smart by default; --settle over GAUNTLET_SETTLE picks browsergym; anything else names the flag', () => {
    expect(resolveConfig({}, {}).settle).toBe('smart');
    expect(resolveConfig({}, { GAUNTLET_SETTLE: 'browsergym' }).settle).toBe('browsergym');
    expect(resolveConfig({ settle: 'smart' }, { GAUNTLET_SETTLE: 'browsergym' }).settle).toBe('smart');
    expect(() => resolveConfig({ settle: 'fast' }, {})).toThrow(
      /^--settle must be one of smart, browsergym \(got "fast"\)$/,
    );
  });
});
