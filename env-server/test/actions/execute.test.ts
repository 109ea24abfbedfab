import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { executeAction, executeActions } from '../../src/actions/execute-actions.js';
import { ActionError, type BoundAction, type Literal } from '../../src/actions/types.js';
import { FakeContext, actionError, useFakeContext } from './fake-context.js';

let ctx: FakeContext;
let page: Page;

const bound = (name: string, params: Record<string, Literal> = {}): BoundAction => ({
  name,
  params,
  source: `${name}(…)`,
});

useFakeContext((opened) => {
  ctx = opened;
  page = opened.activePage();
});

describe('executeActions', () => {
  it('runs actions in order', async () => {
    await page.setContent('<input bid="1">');
    await executeActions(
      [
        bound('fill', { bid: '1', value: 'ab' }),
        bound('press', { bid: '1', key_comb: 'Backspace' }),
        bound('press', { bid: '1', key_comb: 'c' }),
      ],
      ctx,
    );
    expect(await page.locator('[bid="1"]').inputValue()).toBe('ac');
  });

  it('stops at the first error and rethrows it', async () => {
    await page.setContent('<input bid="1">');
    const error = await actionError(
      executeActions(
        [
          bound('fill', { bid: '1', value: 'first' }),
          bound('click', { bid: '404' }),
          bound('fill', { bid: '1', value: 'never' }),
        ],
        ctx,
      ),
    );
    expect(error.display).toBe('ValueError: Could not find element with bid "404"');
    expect(await page.locator('[bid="1"]').inputValue()).toBe('first');
  });
});

describe('chat, infeasible and noop', () => {
  it('sends messages to the user and reports infeasibility through the session', async () => {
    await ctx.run('send_msg_to_user', { text: 'The answer is 42.' });
    await ctx.run('report_infeasible', { reason: 'There is no checkout button.' });
    expect(ctx.messages).toEqual(['The answer is 42.']);
    expect(ctx.infeasible).toEqual(['There is no checkout button.']);
  });

  it('waits wait_ms in noop', async () => {
    const started = Date.now();
    await ctx.run('noop', { wait_ms: 120 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
  });

  it("rejects with the deadline's reason when the step is aborted mid-noop", async () => {
    const reason = new Error('step deadline passed');
    const waiting = ctx.run('noop', { wait_ms: 60_000 });
    ctx.deadline.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('does not start an action once the step is aborted', async () => {
    await page.setContent('<button bid="1" onclick="window.clicked = true">x</button>');
    const reason = new Error('too late');
    ctx.deadline.abort(reason);
    await expect(executeAction(bound('click', { bid: '1' }), ctx)).rejects.toBe(reason);
    expect(await page.evaluate(() => 'clicked' in window)).toBe(false);
  });
});

describe('errors', () => {
  it("names an action it does not know in BrowserGym's words", async () => {
    const error = await actionError(executeAction(bound('send_keys', { text: 'x' }), ctx));
    expect(error).toBeInstanceOf(ActionError);
    expect(error.display).toBe("NameError: Invalid action type 'send_keys'.");
  });

  it('refuses an upload of a file the session does not offer', async () => {
    await page.setContent('<input type="file" bid="1">');
    const error = await actionError(ctx.run('upload_file', { bid: '1', file: '/etc/passwd' }));
    expect(error.display).toBe('ValueError: file "/etc/passwd" is not available for upload');
  });
});
