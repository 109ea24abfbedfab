import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeContext, actionError, useFakeContext } from './fake-context.js';
import { serveFixtures, type FixtureServer } from './fixture-server.js';

let server: FixtureServer;
let ctx: FakeContext;
let page: Page;

beforeAll(async () => {
  server = await serveFixtures();
});
afterAll(() => server.close());
const browser = useFakeContext(
  async (opened) => {
    ctx = opened;
    page = opened.activePage();
  },
  () => ({ allowedOrigins: [server.origin] }),
);

describe('goto', () => {
  it('navigates to an allowed URL and returns once the document is parsed', async () => {
    await ctx.run('goto', { url: server.url('two.html?delay=200') });
    expect(page.url()).toBe(server.url('two.html?delay=200'));
    expect(await page.title()).toBe('Two');
  });

  it('refuses a URL the session does not allow, without leaving the page', async () => {
    await page.goto(server.url('one.html'));
    const error = await actionError(ctx.run('goto', { url: 'http://blocked.invalid/' }));
    expect(error.display).toBe('PermissionError: navigation to http://blocked.invalid/ is not allowed');
    expect(page.url()).toBe(server.url('one.html'));
  });

  it("reports a network failure in Playwright's words", async () => {
    const closed = await serveFixtures();
    await closed.close(); // a port nothing listens on any more
    const deadUrl = closed.url('one.html');
    const deadCtx = await FakeContext.open(browser(), { allowedOrigins: [closed.origin] });
    try {
      const error = await actionError(deadCtx.run('goto', { url: deadUrl }));
      expect(error.display).toBe(`Error: net::ERR_CONNECTION_REFUSED at ${deadUrl}`);
    } finally {
      await deadCtx.close();
    }
  });
});

describe('history', () => {
  it('goes back and forward', async () => {
    await ctx.run('goto', { url: server.url('one.html') });
    await ctx.run('goto', { url: server.url('two.html') });
    await ctx.run('go_back');
    expect(await page.title()).toBe('One');
    await ctx.run('go_forward');
    expect(await page.title()).toBe('Two');
  });

  it('does nothing, without error, when there is no history', async () => {
    await ctx.run('go_back');
    await ctx.run('go_forward');
    expect(page.url()).toBe('about:blank');
  });
});

describe('tabs', () => {
  it('opens a tab and makes it active, focuses by index (negative from the end), closes the active one', async () => {
    await ctx.run('goto', { url: server.url('one.html') });
    await ctx.run('new_tab');
    expect(ctx.pages()).toHaveLength(2);
    expect(ctx.activePage().url()).toBe('about:blank');
    await ctx.run('tab_focus', { index: 0 });
    expect(ctx.activePage().url()).toBe(server.url('one.html'));
    await ctx.run('tab_focus', { index: -1 });
    expect(ctx.activePage().url()).toBe('about:blank');
    await ctx.run('tab_close');
    expect(ctx.pages()).toHaveLength(1);
    expect(ctx.activePage().url()).toBe(server.url('one.html'));
  });

  it('says which indexes exist when the tab is not there', async () => {
    const error = await actionError(ctx.run('tab_focus', { index: 3 }));
    expect(error.display).toBe('ValueError: tab_focus: no tab at index 3 (1 tab open)');
  });
});
