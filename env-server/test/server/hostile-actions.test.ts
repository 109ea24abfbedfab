import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.js';
import { postJson, startTestServer } from '../support/server.js';

/**
 * Strange action strings over HTTP against a real server: each is an action error in the
 * observation (or a typed 4xx), never a 5xx, and no reply names a path of this machine or a
 * Playwright method.
 */
const CLICK_ME = /\[(\w+)\] button 'Click Me!'/;
const uploads = mkdtempSync(join(tmpdir(), 'gauntlet-offered-'));
writeFileSync(join(uploads, 'receipt.pdf'), 'pdf');
afterAll(() => rmSync(uploads, { recursive: true, force: true }));

/** One session on `server`: reset it, step it, and see every reply checked for leaks. */
function sessionOn(server: () => RunningServer) {
  let headers: Record<string, string> = {};
  const send = async (path: string, body: unknown) => {
    const reply = await postJson(server().url + path, body, headers);
    const text = JSON.stringify(reply.body);
    for (const leak of [uploads, tmpdir(), 'locator.', 'page.', 'Execution context']) expect(text).not.toContain(leak);
    return reply;
  };
  return {
    /** A fresh session; the one before is closed (the test server holds only a few). */
    async open() {
      const previous = headers['x-session-id'];
      if (previous) await fetch(`${server().url}/sessions/${previous}`, { method: 'DELETE' });
      const opened = await postJson(server().url + '/sessions', {});
      expect(opened.status).toBe(200);
      headers = { 'x-session-id': opened.body.session_id };
    },
    reset: (body: unknown = { task_name: 'click-test', seed: 1 }) => send('/reset', body),
    step: (action: string) => send('/step', { action: { action_str: action } }),
  };
}

describe('with the default settings', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());
  const session = sessionOn(() => server);

  it('a step before reset or after the end is a 409 that says to reset', async () => {
    await session.open();
    const early = await session.step('noop()');
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({
      name: 'EpisodeStateError',
      code: 'EXECUTION_ERROR',
      message: expect.stringMatching(/reset/),
    });
    const reset = await session.reset();
    expect((await session.step(`click('${CLICK_ME.exec(reset.body.observation.axtree_txt)![1]}')`)).body.done).toBe(
      true,
    );
    const late = await session.step('noop()');
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({
      name: 'EpisodeStateError',
      message: expect.stringMatching(/episode is over/),
    });
  });

  it('goto refuses data: and blob: URLs, so their script never runs', async () => {
    await session.open();
    await session.reset();
    const data = await session.step(`goto('data:text/html,<script>document.title="ran"</script>')`);
    expect(data.status).toBe(200);
    expect(data.body.observation.error).toBe(
      'PermissionError: Navigation to data: URLs is blocked: they would run page JavaScript (the operator can allow them with --allow-data-urls)',
    );
    expect(data.body.observation.url).toContain('/miniwob/click-test.html');
    expect(data.body.metadata.browsergym_obs.open_pages_titles).not.toContain('ran');
    expect((await session.step(`goto('blob:null/abc')`)).body.observation.error).toMatch(
      /^PermissionError: Navigation to blob: URLs is blocked/,
    );
    for (const url of [
      'javascript:document.title="ran"',
      'file:///etc/passwd',
      'filesystem:http://tasks.gauntlet.test/temporary/x',
    ]) {
      expect((await session.step(`goto('${url}')`)).body.observation.error).toMatch(
        /^PermissionError: Navigation to \w+: URLs is blocked$/,
      );
    }
  });

  it('upload_file is off without an upload folder', async () => {
    await session.open();
    await session.reset();
    const upload = await session.step(`upload_file('5', 'receipt.pdf')`);
    expect(upload.status).toBe(200);
    expect(upload.body.observation.error).toBe(
      'PermissionError: upload_file is off: the operator offers no files for upload (--upload-dir)',
    );
  });

  it('a Playwright failure reads without the Playwright method behind it', async () => {
    await session.open();
    const reset = await session.reset();
    const press = await session.step(`press('${CLICK_ME.exec(reset.body.observation.axtree_txt)![1]}', 'Foo')`);
    expect(press.body.observation.error).toBe('Error: Unknown key: "Foo"');
  });
});

describe('with data: URLs and an upload folder allowed', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ allowDataUrls: true, uploadDir: uploads });
  });
  afterAll(() => server?.close());
  const session = sessionOn(() => server);

  it('goto opens a data: URL', async () => {
    await session.open();
    await session.reset();
    const data = await session.step(`goto('data:text/html,<title>from data</title>')`);
    expect(data.body.observation.error).toBe('');
    expect(data.body.observation.url).toBe('data:text/html,<title>from data</title>');
  });

  it('a blob: URL that does not exist is an action error, and the session resets and plays on', async () => {
    await session.open();
    await session.reset();
    const blob = await session.step(`goto('blob:null/abc')`);
    expect(blob.status).toBe(200);
    expect(blob.body.observation.error).toBe('Error: net::ERR_FILE_NOT_FOUND at blob:null/abc');
    const reset = await session.reset({ task_name: 'click-test', seed: 2 });
    expect(reset.status).toBe(200);
    expect((await session.step(`click('${CLICK_ME.exec(reset.body.observation.axtree_txt)![1]}')`)).body.reward).toBe(
      1,
    );
  });

  it.each(['missing.txt', '', '.'])('upload_file(%j) is an action error that names no path', async (file) => {
    await session.open();
    await session.reset();
    const upload = await session.step(`upload_file('5', '${file}')`);
    expect(upload.status).toBe(200);
    expect(upload.body.observation.error).toBe(`ValueError: file ${JSON.stringify(file)} is not available for upload`);
  });
});
