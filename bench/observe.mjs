// Cost of one observation per part, on a small MiniWoB-style page, a ~500-element page and a page
// with frames and a shadow root. A program, not a test: build first, then run
//   npx tsc -b env-server && node bench/observe.mjs [runs]
// It prints JSON: per page and configuration the median and p90 of every timing (ms), next to a
// same-run baseline (an empty evaluate round trip and a bare Accessibility.getFullAXTree call).
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, findChromium } from '../env-server/dist/browser/executable.js';
import { observePage } from '../env-server/dist/observe/observe.js';

const RUNS = Number(process.argv[2] ?? 40);
const FIXTURES = new URL('../env-server/test/fixtures/observe/', import.meta.url);

function bigPage(rows) {
  const body = Array.from(
    { length: rows },
    (_, i) =>
      `<tr><td>Row ${i}</td><td><a href="#r${i}">open ${i}</a></td><td><input type="checkbox" id="c${i}"><label for="c${i}">pick</label></td></tr>`,
  ).join('');
  return `<!DOCTYPE html><title>Big</title><h1>Big table</h1><form><input name="q" placeholder="Search"><button>Go</button></form><table><tbody>${body}</tbody></table>`;
}

const PAGES = {
  small: () => readFileSync(new URL('login.html', FIXTURES), 'utf8'),
  large: () => bigPage(70),
  frames: () => readFileSync(new URL('frames-shadow.html', FIXTURES), 'utf8'),
};

const CONFIGS = {
  default: {},
  mark_only: { axtree: false, pruned_html: false, extra_properties: false },
  axtree_only: { pruned_html: false, extra_properties: false },
  pruned_html_only: { axtree: false, extra_properties: false },
  png: { screenshot: 'png' },
  jpeg: { screenshot: 'jpeg' },
  rgb: { screenshot: 'rgb' },
};

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: Math.round(at(0.5) * 100) / 100, p90: Math.round(at(0.9) * 100) / 100 };
};

async function time(fn, runs) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return stats(out);
}

const browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS, headless: true });
const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
await context.route('http://gauntlet.test/**', (route) => {
  const name = new URL(route.request().url()).pathname.slice(1);
  const html = name === 'page.html' ? currentHtml : readFileSync(new URL(name, FIXTURES), 'utf8');
  return route.fulfill({ contentType: 'text/html', body: html });
});
let currentHtml = '';
const report = { runs: RUNS, chromium: browser.version(), pages: {} };
for (const [name, html] of Object.entries(PAGES)) {
  currentHtml = html();
  const page = await context.newPage();
  await page.goto('http://gauntlet.test/page.html');
  const cdp = await context.newCDPSession(page);
  const elements = await page.evaluate(() => document.querySelectorAll('*').length);
  const entry = {
    elements,
    frames: page.frames().length,
    baseline: {
      evaluate_round_trip: await time(() => page.evaluate(() => 1), RUNS),
      cdp_getFullAXTree: await time(() => cdp.send('Accessibility.getFullAXTree', {}), RUNS),
    },
    configs: {},
  };
  for (const [config, options] of Object.entries(CONFIGS)) {
    const runs = config === 'rgb' ? Math.min(RUNS, 5) : RUNS;
    for (let i = 0; i < 3; i++) await observePage(page, options); // warm caches and CDP sessions
    const parts = {};
    for (let i = 0; i < runs; i++) {
      const { timings } = await observePage(page, options);
      for (const [part, ms] of Object.entries(timings)) (parts[part] ??= []).push(ms);
    }
    entry.configs[config] = Object.fromEntries(Object.entries(parts).map(([part, values]) => [part, stats(values)]));
  }
  report.pages[name] = entry;
  await page.close();
}
await browser.close();
console.log(JSON.stringify(report, null, 2));
