import type { Page } from 'playwright-core';
import type { OracleView } from '../../src/tasks/task.js';

/**
 * A stand-in for src/observe/observe.ts until it lands: marks every element with `bid` in
 * document order and prints the few roles our MiniWoB pages use in BrowserGym's AXTree format
 * (`[bid] role 'name' value='v'`), masking passwords the way Chrome does.
 */
export async function miniObserve(page: Page, goal: string): Promise<OracleView> {
  const seen = await page.evaluate(() => {
    const repr = (text: string): string => {
      const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
      const body = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
      return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
    };
    const textboxName = (input: HTMLInputElement): string =>
      (input.labels?.[0]?.textContent ?? input.getAttribute('aria-label') ?? input.placeholder ?? '').trim();
    const describe = (el: Element): string | null => {
      if (el instanceof HTMLButtonElement) return `button ${repr(el.textContent?.trim() ?? '')}`;
      if (el instanceof HTMLAnchorElement && el.hasAttribute('href')) return `link ${repr(el.textContent?.trim() ?? '')}`;
      if (/^H[1-6]$/.test(el.tagName)) return `heading ${repr(el.textContent?.trim() ?? '')}`;
      if (el instanceof HTMLInputElement && ['text', 'password'].includes(el.type)) {
        const shown = el.type === 'password' ? '•'.repeat(el.value.length) : el.value;
        return `textbox ${repr(textboxName(el))}` + (shown ? ` value=${repr(shown)}` : '');
      }
      return null;
    };

    const lines = [`RootWebArea ${repr(document.title)}, focused`];
    const query = document.getElementById('query')?.textContent;
    if (query) lines.push(`\tStaticText ${repr(query)}`);
    let counter = 0;
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const bid = String(counter++);
      el.setAttribute('bid', bid);
      const line = describe(el);
      if (line) lines.push(`\t[${bid}] ${line}` + (el === document.activeElement ? ', focused' : ''));
    }
    return {
      axtree_txt: lines.join('\n'),
      pruned_html: document.body.outerHTML,
      focused_element_bid: document.activeElement?.getAttribute('bid') ?? '',
    };
  });
  return { goal, url: page.url(), ...seen };
}
