import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Literal } from '../../src/actions/types.js';
import { FakeContext, actionError, srcdoc, useFakeContext } from './fake-context.js';

// Playwright's timeout line without the API call it names ("locator.click: "), as the agent sees it.
const TIMEOUT = 'Timeout 500ms exceeded.';

let ctx: FakeContext;
let page: Page;

useFakeContext((opened) => {
  ctx = opened;
  page = opened.activePage();
});

/** The `last_action_error` text the agent would see for this action on this page. */
async function errorFor(html: string, name: string, params: Record<string, Literal>): Promise<string> {
  await page.setContent(html);
  return (await actionError(ctx.run(name, params))).display;
}

describe('missing elements', () => {
  it('says exactly what BrowserGym says', async () => {
    expect(await errorFor('<button bid="1">x</button>', 'click', { bid: '99' })).toBe(
      'ValueError: Could not find element with bid "99"',
    );
  });

  it('says so for a bid missing inside an existing frame, and for a frame that does not exist', async () => {
    const html = `<iframe bid="a" srcdoc="${srcdoc('<input bid="a1">')}"></iframe>`;
    expect(await errorFor(html, 'fill', { bid: 'a7', value: 'x' })).toBe(
      'ValueError: Could not find element with bid "a7"',
    );
    expect(await errorFor(html, 'click', { bid: 'c2' })).toBe('ValueError: Could not find element with bid "c2"');
  });

  it('says so for every bid action, not only click', async () => {
    for (const [name, params] of [
      ['hover', { bid: '9' }],
      ['focus', { bid: '9' }],
      ['press', { bid: '9', key_comb: 'Enter' }],
      ['clear', { bid: '9' }],
      ['select_option', { bid: '9', options: 'a' }],
      ['drag_and_drop', { from_bid: '1', to_bid: '9' }],
    ] as const) {
      expect(await errorFor('<div bid="1">x</div>', name, params)).toBe(
        'ValueError: Could not find element with bid "9"',
      );
    }
  });
});

describe('hidden elements', () => {
  it.each([
    ['display:none', '<button bid="1" style="display:none">x</button>', 'hidden (display:none)'],
    [
      'a display:none ancestor',
      '<div id="panel" class="tab" bid="9" style="display:none"><button bid="1">x</button></div>',
      'hidden (display:none on ancestor div#panel.tab (bid "9"))',
    ],
    ['visibility:hidden', '<button bid="1" style="visibility:hidden">x</button>', 'hidden (visibility:hidden)'],
    ['zero size', '<div bid="1" style="width:0;height:0;overflow:hidden">x</div>', 'hidden (zero size)'],
    [
      'a place no scrolling reaches',
      '<button bid="1" style="position:absolute;left:-500px;top:10px">x</button>',
      'outside the viewport at (-500, 10) and cannot be scrolled into view',
    ],
  ])('cannot be clicked when hidden by %s', async (_case, html, why) => {
    expect(await errorFor(html, 'click', { bid: '1' })).toBe(
      `TimeoutError: element with bid "1" is ${why}; ${TIMEOUT}`,
    );
  });

  it('is not filled blindly: a forced fill would type into nothing', async () => {
    expect(await errorFor('<input bid="1" style="display:none">', 'fill', { bid: '1', value: 'x' })).toBe(
      `TimeoutError: element with bid "1" is hidden (display:none); ${TIMEOUT}`,
    );
  });

  it('is still selected in a hidden <select>, as BrowserGym forces it (custom dropdowns hide the native one)', async () => {
    await page.setContent(
      '<select bid="1" style="display:none"><option value="a">A</option><option value="b">B</option></select>',
    );
    await ctx.run('select_option', { bid: '1', options: 'B' });
    expect(await page.locator('[bid="1"]').inputValue()).toBe('b');
  });
});

describe('disabled and read-only elements', () => {
  it('names a disabled button, and does not force the click through', async () => {
    const html = '<button bid="5" disabled onclick="window.clicked = true">Pay</button>';
    expect(await errorFor(html, 'click', { bid: '5' })).toBe(
      `TimeoutError: element with bid "5" is disabled; ${TIMEOUT}`,
    );
    expect(await page.evaluate(() => 'clicked' in window)).toBe(false);
  });

  it('names a disabled fieldset and aria-disabled', async () => {
    expect(await errorFor('<fieldset disabled><input bid="5"></fieldset>', 'fill', { bid: '5', value: 'x' })).toBe(
      `TimeoutError: element with bid "5" is disabled (inside a disabled fieldset); ${TIMEOUT}`,
    );
    expect(await errorFor('<button bid="5" aria-disabled="true">x</button>', 'click', { bid: '5' })).toBe(
      `TimeoutError: element with bid "5" is disabled (aria-disabled); ${TIMEOUT}`,
    );
  });

  it('will not force a value into a read-only field', async () => {
    const html = '<input bid="5" readonly value="fixed">';
    expect(await errorFor(html, 'fill', { bid: '5', value: 'x' })).toBe(
      `TimeoutError: element with bid "5" is read-only; ${TIMEOUT}`,
    );
    expect(await page.locator('[bid="5"]').inputValue()).toBe('fixed');
  });
});

describe('covered elements', () => {
  const covered = (cover: string) => `<div style="position:relative">
    <button bid="7" onclick="window.clicked = 'button'">Buy</button>
    ${cover.replace('>', ' onclick="window.clicked = \'cover\'" style="position:absolute;inset:0;background:gray">')}</div>`;

  it('names the covering element by tag, id, classes and bid, and clicks nothing', async () => {
    const html = covered('<div id="overlay" class="modal open" bid="8"></div>');
    expect(await errorFor(html, 'click', { bid: '7' })).toBe(
      `TimeoutError: element with bid "7" is covered by div#overlay.modal.open (bid "8"); ${TIMEOUT}`,
    );
    expect(await page.evaluate(() => 'clicked' in window)).toBe(false);
  });

  it('names a cover without a bid by tag, id and classes', async () => {
    expect(await errorFor(covered('<section id="cookie-banner">'), 'hover', { bid: '7' })).toBe(
      'TimeoutError: element with bid "7" is covered by section#cookie-banner; Timeout 500ms exceeded.',
    );
  });

  it('clicks through an icon that lets pointers through to its button, as a user would', async () => {
    await page.setContent(
      `<button bid="1" onclick="window.clicked = 'button'"><span bid="2" style="pointer-events:none">★</span> Star</button>`,
    );
    await ctx.run('click', { bid: '2' });
    expect(await page.evaluate(() => (window as unknown as { clicked: string }).clicked)).toBe('button');
  });

  it('says when the element itself takes no pointer events', async () => {
    expect(await errorFor('<button bid="1" style="pointer-events:none">x</button>', 'click', { bid: '1' })).toBe(
      `TimeoutError: element with bid "1" does not receive pointer events (pointer-events: none); ${TIMEOUT}`,
    );
  });
});

describe('inside frames and shadow roots', () => {
  it('diagnoses an element covered inside a nested iframe', async () => {
    const inner = `<div style="position:relative"><button bid="aA2">x</button>
      <div id="veil" bid="aA3" style="position:absolute;inset:0"></div></div>`;
    const html = `<iframe bid="a" srcdoc="${srcdoc(`<iframe bid="aA" srcdoc="${srcdoc(inner)}"></iframe>`)}"></iframe>`;
    expect(await errorFor(html, 'click', { bid: 'aA2' })).toBe(
      `TimeoutError: element with bid "aA2" is covered by div#veil (bid "aA3"); ${TIMEOUT}`,
    );
  });

  it('diagnoses an element hidden inside an open shadow root, naming the hidden ancestor inside it', async () => {
    const html = `<div id="host" bid="1"></div><script>document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML =
      '<div id="drawer" style="display:none"><button bid="2">x</button></div>';</script>`;
    expect(await errorFor(html, 'click', { bid: '2' })).toBe(
      `TimeoutError: element with bid "2" is hidden (display:none on ancestor div#drawer); ${TIMEOUT}`,
    );
  });
});

describe('wrong kind of element or value', () => {
  it('explains that fill needs a field', async () => {
    expect(await errorFor('<div bid="12">text</div>', 'fill', { bid: '12', value: 'x' })).toBe(
      'ValueError: element with bid "12" is a <div>, fill needs an input, textarea, select or contenteditable',
    );
    expect(await errorFor('<input type="checkbox" bid="12">', 'fill', { bid: '12', value: 'on' })).toBe(
      'ValueError: element with bid "12" is an <input type="checkbox">, fill needs a text input; use click to toggle it',
    );
  });

  it('explains that select_option needs a <select>', async () => {
    expect(await errorFor('<ul bid="3"><li>Red</li></ul>', 'select_option', { bid: '3', options: 'Red' })).toBe(
      'ValueError: element with bid "3" is a <ul>, select_option needs a <select>',
    );
  });

  it('lists the available options when none matches', async () => {
    const html =
      '<select bid="6"><option value="r">Red</option><option value="g">Green</option><option>Blue</option></select>';
    expect(await errorFor(html, 'select_option', { bid: '6', options: 'Purple' })).toBe(
      'ValueError: element with bid "6" has no option "Purple"; available options: "Red" (value "r"), "Green" (value "g"), "Blue"',
    );
  });

  it('names each missing option of a multiple select (all must match there)', async () => {
    const html = '<select bid="6" multiple><option value="r">Red</option><option value="g">Green</option></select>';
    expect(await errorFor(html, 'select_option', { bid: '6', options: ['Red', 'Purple', 'Pink'] })).toBe(
      'ValueError: element with bid "6" has no option "Purple", "Pink"; available options: "Red" (value "r"), "Green" (value "g")',
    );
  });
});
