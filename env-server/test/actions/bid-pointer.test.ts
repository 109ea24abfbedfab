import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FakeContext, srcdoc, useFakeContext } from './fake-context.js';

// Every listener appends to window.log, so a test reads back exactly which events the page saw.
const LOGGER = `<script>window.log = []; const log = (e) => window.log.push(e);</script>`;

let ctx: FakeContext;
let page: Page;
const log = (p: Page = page) => p.evaluate(() => (window as unknown as { log: string[] }).log);

useFakeContext((opened) => {
  ctx = opened;
  page = opened.activePage();
});

describe('click and dblclick', () => {
  const BUTTON = `${LOGGER}<button bid="12"
      onclick="log('click shift=' + event.shiftKey + ' ctrl=' + event.ctrlKey + ' alt=' + event.altKey)"
      onauxclick="log('auxclick ' + event.button)" oncontextmenu="log('contextmenu'); return false"
      ondblclick="log('dblclick shift=' + event.shiftKey)">Go</button>`;

  it('clicks the element once', async () => {
    await page.setContent(BUTTON);
    await ctx.run('click', { bid: '12' });
    expect(await log()).toEqual(['click shift=false ctrl=false alt=false']);
  });

  it('holds the requested modifiers during the click', async () => {
    await page.setContent(BUTTON);
    await ctx.run('click', { bid: '12', modifiers: ['Shift', 'Alt'] });
    await ctx.run('click', { bid: '12', modifiers: ['Control'] });
    expect(await log()).toEqual(['click shift=true ctrl=false alt=true', 'click shift=false ctrl=true alt=false']);
  });

  it('clicks with the right and middle buttons', async () => {
    await page.setContent(BUTTON);
    await ctx.run('click', { bid: '12', button: 'right' });
    await ctx.run('click', { bid: '12', button: 'middle' });
    expect(await log()).toEqual(['contextmenu', 'auxclick 2', 'auxclick 1']);
  });

  it('double-clicks, with modifiers', async () => {
    await page.setContent(BUTTON);
    await ctx.run('dblclick', { bid: '12', modifiers: ['Shift'] });
    expect((await log()).filter((e) => e.startsWith('dblclick'))).toEqual(['dblclick shift=true']);
  });

  it('force-clicks a checkbox hidden under its own label, as BrowserGym would', async () => {
    await page.setContent(`<div style="position:relative">
      <input type="checkbox" id="cb" bid="3" style="position:absolute;left:0;top:0;opacity:0">
      <label for="cb" style="position:absolute;left:0;top:0;width:40px;height:40px">Accept</label></div>`);
    await ctx.run('click', { bid: '3' });
    expect(await page.isChecked('#cb')).toBe(true);
  });

  it('rejects a modifier Playwright does not know', async () => {
    await page.setContent(BUTTON);
    await expect(ctx.run('click', { bid: '12', modifiers: ['Ctrl'] })).rejects.toMatchObject({
      display: 'ValueError: modifiers must be among Alt, Control, ControlOrMeta, Meta, Shift, got "Ctrl"',
    });
  });
});

describe('hover', () => {
  it('moves the pointer over the element: :hover styles apply and mouseenter fires', async () => {
    await page.setContent(`${LOGGER}<style>#t:hover { color: rgb(255, 0, 0) }</style>
      <p id="t" bid="5" onmouseenter="log('enter')">Tip</p>`);
    await ctx.run('hover', { bid: '5' });
    expect(await log()).toEqual(['enter']);
    expect(await page.$eval('#t', (el) => getComputedStyle(el).color)).toBe('rgb(255, 0, 0)');
  });
});

describe('drag_and_drop', () => {
  it('drives native HTML5 drag and drop', async () => {
    await page.setContent(`${LOGGER}
      <div bid="1" draggable="true" style="width:60px;height:60px;background:red"
        ondragstart="event.dataTransfer.setData('text/plain', 'card-7')">card</div>
      <div bid="2" style="width:120px;height:120px;background:blue"
        ondragover="event.preventDefault()" ondrop="event.preventDefault(); log('drop ' + event.dataTransfer.getData('text/plain'))">bin</div>`);
    await ctx.run('drag_and_drop', { from_bid: '1', to_bid: '2' });
    expect(await log()).toEqual(['drop card-7']);
  });

  it('drives mouse-event drag widgets: down on the source, up on the target', async () => {
    await page.setContent(`${LOGGER}
      <div bid="1" style="width:60px;height:60px;background:red" onmousedown="log('down source')">knob</div>
      <div bid="2" style="width:120px;height:120px;background:blue" onmouseup="log('up target')">slot</div>`);
    await ctx.run('drag_and_drop', { from_bid: '1', to_bid: '2' });
    expect(await log()).toEqual(['down source', 'up target']);
  });
});

describe('bids inside frames and shadow roots', () => {
  const COUNTER = (bid: string) => `<button bid="${bid}" onclick="window.top.log.push('clicked ${bid}')">in</button>`;

  it('clicks inside an iframe', async () => {
    await page.setContent(`${LOGGER}<iframe bid="a" srcdoc="${srcdoc(COUNTER('a1'))}"></iframe>`);
    await ctx.run('click', { bid: 'a1' });
    expect(await log()).toEqual(['clicked a1']);
  });

  it('clicks inside an iframe nested in an iframe', async () => {
    const inner = `<iframe bid="aA" srcdoc="${srcdoc(COUNTER('aA4'))}"></iframe>`;
    await page.setContent(
      `${LOGGER}<iframe bid="a" srcdoc="${srcdoc(inner)}" style="width:400px;height:200px"></iframe>`,
    );
    await ctx.run('click', { bid: 'aA4' });
    expect(await log()).toEqual(['clicked aA4']);
  });

  it('clicks and fills inside an open shadow root', async () => {
    await page.setContent(`${LOGGER}<div id="host"></div><script>
      document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML =
        '<button bid="7" onclick="log(\\'shadow click\\')">x</button><input bid="8">';</script>`);
    await ctx.run('click', { bid: '7' });
    await ctx.run('fill', { bid: '8', value: 'deep' });
    expect(await log()).toEqual(['shadow click']);
    expect(await page.locator('[bid="8"]').inputValue()).toBe('deep');
  });
});
