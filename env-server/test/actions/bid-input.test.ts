import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FakeContext, actionError, useFakeContext } from './fake-context.js';

// Key and input listeners append to window.log, so a test sees exactly which events fired.
const FIELD = `<script>window.log = []; const log = (e) => window.log.push(e);</script>
  <input bid="4" onkeydown="log('keydown ' + event.key)" oninput="log('input ' + this.value)"
    onchange="log('change ' + this.value)" onfocus="log('focus')">`;

let ctx: FakeContext;
let page: Page;
const log = () => page.evaluate(() => (window as unknown as { log: string[] }).log);
const value = (bid: string) => page.locator(`[bid="${bid}"]`).inputValue();

useFakeContext((opened) => {
  ctx = opened;
  page = opened.activePage();
});

describe('fill and clear', () => {
  it('sets the value and fires input, with no key events', async () => {
    await page.setContent(FIELD);
    await ctx.run('fill', { bid: '4', value: 'Elmira, NY' });
    expect(await value('4')).toBe('Elmira, NY');
    expect((await log()).filter((e) => !e.startsWith('focus'))).toEqual(['input Elmira, NY']);
  });

  it('types the last character as real keys when enable_autocomplete_menu is set', async () => {
    await page.setContent(FIELD);
    await ctx.run('fill', { bid: '4', value: 'Bos', enable_autocomplete_menu: true });
    expect(await value('4')).toBe('Bos');
    expect((await log()).filter((e) => !e.startsWith('focus'))).toEqual(['input Bo', 'keydown s', 'input Bos']);
  });

  it('fills a textarea and a contenteditable', async () => {
    await page.setContent(`<textarea bid="1"></textarea><div bid="2" contenteditable="true"></div>`);
    await ctx.run('fill', { bid: '1', value: 'line one\nline two' });
    await ctx.run('fill', { bid: '2', value: 'rich' });
    expect(await value('1')).toBe('line one\nline two');
    expect(await page.locator('[bid="2"]').textContent()).toBe('rich');
  });

  it('chooses the option when a model fills a <select>', async () => {
    await page.setContent(`<select bid="3"><option value="">-</option><option value="nyc">New York</option></select>`);
    await ctx.run('fill', { bid: '3', value: 'New York' });
    expect(await value('3')).toBe('nyc');
  });

  it('clears a field', async () => {
    await page.setContent(`<input bid="4" value="old text">`);
    await ctx.run('clear', { bid: '4' });
    expect(await value('4')).toBe('');
  });
});

describe('select_option', () => {
  const SELECT = `<select bid="6"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select>
    <select bid="7" multiple><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select>`;
  const selected = (bid: string) =>
    page.locator(`[bid="${bid}"]`).evaluate((el: HTMLSelectElement) => Array.from(el.selectedOptions, (o) => o.value));

  it('selects by value and by label', async () => {
    await page.setContent(SELECT);
    await ctx.run('select_option', { bid: '6', options: 'g' });
    expect(await selected('6')).toEqual(['g']);
    await ctx.run('select_option', { bid: '6', options: 'Blue' });
    expect(await selected('6')).toEqual(['b']);
  });

  it('selects several options of a multiple select, mixing values and labels', async () => {
    await page.setContent(SELECT);
    await ctx.run('select_option', { bid: '7', options: ['r', 'Blue'] });
    expect(await selected('7')).toEqual(['r', 'b']);
  });
});

describe('press and focus', () => {
  it('focuses the element and presses keys and combinations', async () => {
    await page.setContent(`<input bid="4" value="abc"><input bid="5">`);
    await ctx.run('press', { bid: '4', key_comb: 'End' });
    await ctx.run('press', { bid: '4', key_comb: 'Backspace' });
    expect(await value('4')).toBe('ab');
    await ctx.run('press', { bid: '4', key_comb: 'ControlOrMeta+a' });
    await ctx.run('press', { bid: '4', key_comb: 'Delete' });
    expect(await value('4')).toBe('');
  });

  it('focuses an element', async () => {
    await page.setContent(`<input bid="4"><input bid="5">`);
    await ctx.run('focus', { bid: '5' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('bid'))).toBe('5');
  });

  it("reports an unknown key name with Playwright's words", async () => {
    await page.setContent(`<input bid="4">`);
    const error = await actionError(ctx.run('press', { bid: '4', key_comb: 'Foo' }));
    expect(error.display).toBe('Error: Unknown key: "Foo"');
  });
});

describe('upload_file', () => {
  const fileNames = (bid: string) =>
    page.locator(`[bid="${bid}"]`).evaluate((el: HTMLInputElement) => Array.from(el.files ?? [], (f) => f.name));

  it('sets a file input, even a hidden one behind a styled label', async () => {
    ctx.addUpload('receipt.pdf', '%PDF-1.4');
    await page.setContent(
      `<label bid="1" for="f">Choose</label><input type="file" id="f" bid="2" style="display:none">`,
    );
    await ctx.run('upload_file', { bid: '2', file: 'receipt.pdf' });
    expect(await fileNames('2')).toEqual(['receipt.pdf']);
  });

  it('uploads several files through the chooser a button opens', async () => {
    ctx.addUpload('a.txt', 'A');
    ctx.addUpload('b.txt', 'B');
    await page.setContent(`<button bid="1" onclick="document.getElementById('f').click()">Upload</button>
      <input type="file" id="f" bid="2" multiple style="display:none">`);
    await ctx.run('upload_file', { bid: '1', file: ['a.txt', 'b.txt'] });
    expect(await fileNames('2')).toEqual(['a.txt', 'b.txt']);
    expect(await page.locator('#f').evaluate((el: HTMLInputElement) => el.files?.[1]?.text())).toBe('B');
  });

  it('says when clicking the element opens no file chooser', async () => {
    ctx.addUpload('a.txt', 'A');
    await page.setContent(`<button bid="1">Nothing</button>`);
    const error = await actionError(ctx.run('upload_file', { bid: '1', file: 'a.txt' }));
    expect(error.display).toBe(
      'TimeoutError: clicking the element with bid "1" opened no file chooser; Timeout 500ms exceeded while waiting for event "filechooser"',
    );
  });
});
