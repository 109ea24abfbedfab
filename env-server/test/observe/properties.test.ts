import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useFreshPage } from '../support/browser.js';
import { markPage } from '../../src/observe/mark.js';
import { observePage } from '../../src/observe/observe.js';
import { waitForFrames } from './pages.js';

let page: Page;
useFreshPage(
  (fresh) => {
    page = fresh;
  },
  { viewport: { width: 800, height: 600 } },
);

const bidOf = async (selector: string) => (await page.locator(selector).getAttribute('bid')) as string;
const NO_MARGIN = '<style>body { margin: 0 } div, button { box-sizing: border-box }</style>';

describe('extra element properties', () => {
  it('gives unrendered elements no box and zero visibility, hidden ones a box and zero visibility', async () => {
    await page.setContent(`${NO_MARGIN}<div id="gone" style="display:none"><span id="inner">x</span></div>
      <div id="hidden" style="visibility:hidden; width:50px; height:10px"></div><div id="shown" style="width:100px; height:40px"></div>`);
    const { properties } = await markPage(page);
    expect(properties[await bidOf('#gone')]).toEqual({
      visibility: 0,
      bbox: null,
      clickable: false,
      set_of_marks: false,
    });
    expect(properties[await bidOf('#inner')]?.bbox).toBeNull();
    expect(properties[await bidOf('#hidden')]).toMatchObject({ visibility: 0, bbox: [0, 0, 50, 10] });
    expect(properties[await bidOf('#shown')]).toMatchObject({ visibility: 1, bbox: [0, 10, 100, 40] });
  });

  it('reports the visible fraction of an element scrolled partly out of view', async () => {
    await page.setContent(
      `${NO_MARGIN}<div style="height:1000px"></div><div id="target" style="height:200px">t</div><div style="height:2000px"></div>`,
    );
    await page.evaluate(() => window.scrollTo(0, 1150)); // only its last 50 of 200 px stay in view
    const { properties } = await markPage(page);
    const target = properties[await bidOf('#target')];
    expect(target?.bbox?.[1]).toBe(-150);
    expect(target?.visibility).toBe(0.25);
  });

  it('clips by scrolling containers, not only by the viewport', async () => {
    await page.setContent(`${NO_MARGIN}<div id="list" style="height:100px; overflow:auto">
      ${Array.from({ length: 10 }, (_, i) => `<div id="item${i}" style="height:40px">${i}</div>`).join('')}</div>`);
    const { properties } = await markPage(page);
    expect(properties[await bidOf('#item0')]?.visibility).toBe(1);
    expect(properties[await bidOf('#item2')]?.visibility).toBe(0.5);
    expect(properties[await bidOf('#item5')]?.visibility).toBe(0);
  });

  it('places frame content in top-level page coordinates', async () => {
    await page.setContent(`${NO_MARGIN}<div style="height:100px"></div>
      <iframe style="margin-left:30px; border:5px solid black; padding:0; width:300px; height:200px"
        srcdoc="<style>body{margin:0}</style><button style='margin:10px; width:50px; height:20px'>in</button>"></iframe>`);
    await waitForFrames(page, 2);
    const { properties } = await markPage(page);
    const button = await page.frames()[1]?.locator('button').getAttribute('bid');
    expect(button).toBe('a2');
    expect(properties.a2?.bbox).toEqual([30 + 5 + 10, 100 + 5 + 10, 50, 20]);
    expect(properties.a2?.visibility).toBe(1);
  });

  it('flags clickable elements by tag, role, handler, cursor and label', async () => {
    await page.setContent(`<button id="b">b</button><div id="plain">text</div><div id="role" role="button">r</div>
      <div id="handler" onclick="void 0">h</div><div id="pointer" style="cursor:pointer">p</div>
      <label id="lab" for="cb">check</label><input id="cb" type="checkbox"><a id="nohref">anchor</a>`);
    const { properties } = await markPage(page);
    const clickable = async (sel: string) => properties[await bidOf(sel)]?.clickable;
    expect(await Promise.all(['#b', '#role', '#handler', '#pointer', '#lab', '#cb'].map(clickable))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(await Promise.all(['#plain', '#nohref'].map(clickable))).toEqual([false, false]);
  });

  it('adds clickability from JS listeners when observing (Chromium knows them, the page does not)', async () => {
    await page.setContent(
      `<div id="js">click me</div><script>document.querySelector('#js').addEventListener('click', () => {});</script>`,
    );
    const bid = await markPage(page).then(() => bidOf('#js'));
    expect((await markPage(page)).properties[bid]?.clickable).toBe(false);
    const observed = await observePage(page, { axtree: false, pruned_html: false });
    expect(observed.extra_element_properties[bid]?.clickable).toBe(true);
  });

  it('puts visible controls and text in the set of marks, not their insides or tiny boxes', async () => {
    await page.setContent(`<button id="b"><span id="label">Go</span></button><p id="p">words</p>
      <div id="tiny" style="width:2px; height:2px; cursor:pointer"></div><div id="empty" style="height:30px"></div>`);
    const { properties } = await markPage(page);
    const som = async (sel: string) => properties[await bidOf(sel)]?.set_of_marks;
    expect(await Promise.all(['#b', '#label', '#p', '#tiny', '#empty'].map(som))).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });
});

describe('focused element bid', () => {
  it('follows focus into open shadow roots', async () => {
    await page.setContent(`<input id="outside"><div id="host"></div>
      <script>document.querySelector('#host').attachShadow({ mode: 'open' }).innerHTML = '<input id="inside">';</script>`);
    await page.locator('#host #inside').focus();
    const marks = await markPage(page);
    expect(marks.focusedBid).toBe(await bidOf('#host #inside'));
  });

  it('follows focus into nested frames', async () => {
    await page.setContent(`<input id="top"><iframe srcdoc="<iframe srcdoc='<input id=deep>'></iframe>"></iframe>`);
    await waitForFrames(page, 3);
    await page.frameLocator('iframe').frameLocator('iframe').locator('#deep').focus();
    expect((await markPage(page)).focusedBid).toBe('aA2');
    await page.locator('#top').focus();
    expect((await markPage(page)).focusedBid).toBe(await bidOf('#top'));
  });

  it('is the body when nothing else has focus', async () => {
    await page.setContent('<p>nothing focusable</p>');
    expect((await markPage(page)).focusedBid).toBe(await bidOf('body'));
  });
});
