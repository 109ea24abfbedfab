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
