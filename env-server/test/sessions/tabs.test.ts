import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StepResult } from '@gauntlet/proto';
import { ConfigError, DEFAULTS, resolveConfig } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { serveFixtures, type FixtureServer } from '../actions/fixture-server.js';

let service: EnvService;
let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await serveFixtures();
  service = new EnvService({
    ...structuredClone(DEFAULTS),
    warmContexts: 0,
    maxSessions: 2,
    idleTtlMs: 0,
    maxTabs: 3,
    allowedOrigins: [fixtures.origin],
  });
  await service.start();
});
afterAll(async () => {
  await service.shutdown();
  await fixtures.close();
});

const TABS = { subsets: ['bid', 'nav', 'tab'] };
const step = (session: EnvSession, action: string): Promise<StepResult> =>
  service.step(session, { action: { action_str: action } });
const tabsOf = (result: StepResult) => result.metadata.browsergym_obs.open_pages_urls.length;

describe('tabs per session are capped (--max-tabs)', () => {
  it('new_tab beyond the cap is a ValueError and opens nothing', async () => {
    const session = await service.openSession('inproc');
    try {
      await service.reset(session, { task_name: 'click-test', seed: 1, action_set: TABS });
      const result = await step(session, 'new_tab()\nnew_tab()\nnew_tab()');
      expect(result.observation.error).toBe(
        "ValueError: new_tab: 3 tabs are open, the most a session may have (the operator's --max-tabs); close one with tab_close() first",
      );
      expect(tabsOf(result)).toBe(3);
      expect(session.pages()[0]!.context().pages()).toHaveLength(3);
      // Closing one makes room again.
      expect(tabsOf(await step(session, 'tab_close()\nnew_tab()'))).toBe(3);
    } finally {
      await service.close(session, 'client');
    }
  });

  it('windows a page opens beyond the cap are closed', async () => {
    const session = await service.openSession('inproc');
    try {
      await service.reset(session, { task_name: 'click-test', seed: 1, action_set: TABS });
      const opened = await step(session, `goto('${fixtures.url('popups.html')}')`);
      const button = /\[(\w+)\] button 'Open six windows'/.exec(opened.observation.axtree_txt)?.[1];
      expect(button).toBeDefined();
      const context = session.pages()[0]!.context();
      const seen = new Promise<void>((resolve) => {
        let count = 0;
        context.on('page', () => ++count === 6 && resolve());
      });
      const clicked = await step(session, `click('${button}')`);
      expect(clicked.observation.last_action_error).toBe(false);
      await seen;
      // Before the cap every window became a tab (seven pages, seven renderers).
      await vi.waitFor(() => expect(context.pages()).toHaveLength(3));
      expect(session.pages()).toHaveLength(3);
      expect(tabsOf(await step(session, 'noop(0)'))).toBe(3);
    } finally {
      await service.close(session, 'client');
    }
  });
});

describe('--max-tabs', () => {
  it('defaults to 8, reads GAUNTLET_MAX_TABS (a flag wins) and refuses 0', () => {
    expect(DEFAULTS.maxTabs).toBe(8);
    expect(resolveConfig({}, { GAUNTLET_MAX_TABS: '4' }).maxTabs).toBe(4);
    expect(resolveConfig({ 'max-tabs': '2' }, { GAUNTLET_MAX_TABS: '4' }).maxTabs).toBe(2);
    expect(() => resolveConfig({ 'max-tabs': '0' }, {})).toThrow(ConfigError);
  });
});
