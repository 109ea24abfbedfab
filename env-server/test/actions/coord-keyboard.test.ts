import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FakeContext, useFakeContext } from './fake-context.js';

// Fixed positions so coordinates are known; every listener appends to window.log.
const PAD = `<script>window.log = []; const log = (e) => window.log.push(e);</script>
  <style>body { margin: 0 } #pad { position: absolute; left: 100px; top: 50px; width: 200px; height: 100px; background: #ccc }</style>
  <div id="pad" onmousemove="log('move ' + event.clientX + ',' + event.clientY)"
    onmousedown="log('down ' + event.button + ' ' + event.clientX + ',' + event.clientY)" onmouseup="log('up ' + event.button)"
    onclick="log('click')" ondblclick="log('dblclick')" oncontextmenu="return false"></div>`;

let ctx: FakeContext;
let page: Page;
const log = () => page.evaluate(() => (window as unknown as { log: string[] }).log);

const browser = useFakeContext((opened) => {
  ctx = opened;
  page = opened.activePage();
});

describe('mouse at coordinates', () => {
  it('moves, presses and releases at the given point with the given button', async () => {
    await page.setContent(PAD);
    await ctx.run('mouse_move', { x: 150, y: 60 });
    await ctx.run('mouse_down', { x: 160, y: 70, button: 'right' });
    await ctx.run('mouse_up', { x: 160, y: 70, button: 'right' });
    // Moving to where the mouse already is still reports a move while a button is held.
    expect(await log()).toEqual(['move 150,60', 'move 160,70', 'down 2 160,70', 'move 160,70', 'up 2']);
  });

  it('clicks and double-clicks at a point', async () => {
    await page.setContent(PAD);
    await ctx.run('mouse_click', { x: 200, y: 100 });
    await ctx.run('mouse_dblclick', { x: 200, y: 100 });
    expect((await log()).filter((e) => e === 'click' || e === 'dblclick')).toEqual([
      'click',
      'click',
      'click',
      'dblclick',
    ]);
  });

  it('drags from one point to another', async () => {
    await page.setContent(PAD);
    await ctx.run('mouse_drag_and_drop', { from_x: 110, from_y: 60, to_x: 290, to_y: 140 });
    expect(await log()).toEqual(['move 110,60', 'down 0 110,60', 'move 290,140', 'up 0', 'click']);
  });

  it('divides coordinates by the device pixel ratio: screenshot pixels in, CSS pixels out', async () => {
    const hiDpi = await FakeContext.open(browser(), { context: { deviceScaleFactor: 2 } });
    try {
      const hiDpiPage = hiDpi.activePage();
      await hiDpiPage.setContent(PAD);
      await hiDpi.run('mouse_click', { x: 400, y: 200 }); // screenshot pixel (400, 200) is CSS pixel (200, 100)
      expect(await hiDpiPage.evaluate(() => (window as unknown as { log: string[] }).log)).toEqual([
        'move 200,100',
        'down 0 200,100',
        'up 0',
        'click',
      ]);
    } finally {
      await hiDpi.close();
    }
  });

  it('uploads through the file chooser opened by clicking at a point', async () => {
    ctx.addUpload('photo.png', 'PNG');
    await page.setContent(
      `<style>body { margin: 0 }</style><input type="file" style="position:absolute;left:0;top:0;width:200px;height:40px">`,
    );
    await ctx.run('mouse_upload_file', { x: 50, y: 20, file: 'photo.png' });
    expect(await page.locator('input').evaluate((el: HTMLInputElement) => el.files?.[0]?.name)).toBe('photo.png');
  });
});

describe('wheel', () => {
  const TALL = `<style>body { margin: 0 }</style><div style="height:5000px">tall</div>
    <div id="box" style="position:fixed;left:0;top:0;width:200px;height:100px;overflow:auto"><div style="height:1000px">inner</div></div>`;

  it('scroll turns the wheel where the mouse is: the page scrolls, and the observation sees it', async () => {
    await page.setContent(TALL);
    await ctx.run('mouse_move', { x: 400, y: 300 });
    await ctx.run('scroll', { delta_x: 0, delta_y: 600 });
    expect(await page.evaluate(() => window.scrollY)).toBe(600);
    await ctx.run('scroll', { delta_x: 0, delta_y: -200 });
    expect(await page.evaluate(() => window.scrollY)).toBe(400);
  });

  it('scroll_at scrolls the scrollable element under the point, not the page', async () => {
    await page.setContent(TALL);
    await ctx.run('scroll_at', { x: 50, y: 50, dx: 0, dy: 300 });
    expect(await page.evaluate(() => [document.getElementById('box')?.scrollTop, window.scrollY])).toEqual([300, 0]);
  });
});

describe('keyboard', () => {
  const INPUT = `<script>window.log = []; const log = (e) => window.log.push(e);</script>
    <input id="f" onkeydown="log('keydown ' + event.key)" oninput="log('input ' + this.value)">`;
  const value = () => page.locator('#f').inputValue();

  it('types one key event per character into the focused element', async () => {
    await page.setContent(INPUT);
    await page.focus('#f');
    await ctx.run('keyboard_type', { text: 'Hi!' });
    expect(await value()).toBe('Hi!');
    expect(await log()).toEqual(['keydown H', 'input H', 'keydown i', 'input Hi', 'keydown !', 'input Hi!']);
  });

  it('inserts text with an input event and no key events', async () => {
    await page.setContent(INPUT);
    await page.focus('#f');
    await ctx.run('keyboard_insert_text', { text: 'pasted' });
    expect(await log()).toEqual(['input pasted']);
  });

  it('presses combinations and holds keys down across actions', async () => {
    await page.setContent(INPUT);
    await page.focus('#f');
    await ctx.run('keyboard_type', { text: 'abc' });
    await ctx.run('keyboard_press', { key: 'ControlOrMeta+a' });
    await ctx.run('keyboard_press', { key: 'Backspace' });
    expect(await value()).toBe('');
    await ctx.run('keyboard_down', { key: 'Shift' });
    await ctx.run('keyboard_press', { key: 'KeyX' });
    await ctx.run('keyboard_up', { key: 'Shift' });
    await ctx.run('keyboard_press', { key: 'KeyX' });
    expect(await value()).toBe('Xx');
  });

  it("reports an unknown key with Playwright's words", async () => {
    await page.setContent(INPUT);
    await expect(ctx.run('keyboard_press', { key: 'Foo' })).rejects.toMatchObject({
      display: 'Error: Unknown key: "Foo"',
    });
  });
});
