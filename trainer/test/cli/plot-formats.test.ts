import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findChromium } from '@gauntlet/proto/chromium';
import { NoChromiumError, RunReport, svgToPng } from '../../src/rl/report/index.js';
import { renderedDom } from '../support/chromium.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function grpoRun(): Promise<string> {
  const root = await tempDir();
  const report = new RunReport({ jsonlPath: join(root, 'metrics.jsonl') });
  for (const step of [1, 2, 3])
    await report.record({
      step,
      version: step,
      metrics: { reward: step / 4, loss: 1 / step },
      successByTask: { 'click-test': step / 3, 'gauntlet:click_sequence': step / 6 },
    });
  return root;
}

// `plot --out x.svg|x.png`: the /curves panels as one SVG file (the same chart code, run in Node)
// and that SVG rendered to PNG by headless Chromium.
describe('gauntlet-trainer plot --out .svg / .png', () => {
  it('writes an SVG with the panels and series that Chromium parses as XML', async () => {
    const root = await grpoRun();
    const file = join(root, 'curves.svg');
    const plot = await runInProcess(['plot', root, '--out', file]);
    expect(plot.code, plot.stderr).toBe(0);
    expect(plot.stdout).toBe(`Wrote the curves of 3 updates (step 1 to 3) to ${file}`);
    const svg = await readFile(file, 'utf8');
    expect(svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<script|(src|href)=/); // self-contained, nothing runs or loads

    const dom = await renderedDom(pathToFileURL(file).href);
    expect(dom).not.toMatch(/parsererror|This page contains the following errors/);
    // Reward (reward), success by task (two tasks), loss: three panels, four series.
    for (const text of ['Training curves: ' + root.split('/').at(-1), 'Reward', 'Success rate by task', 'Loss'])
      expect(dom).toContain(`>${text}</text>`);
    for (const series of ['click-test', 'gauntlet:click_sequence', 'reward', 'loss'])
      expect(dom).toContain(`>${series}</text>`);
    expect(dom.match(/<polyline/g)?.length).toBe(4);
    expect(dom).not.toContain('>Gradient norm</text>');
  }, 120_000);

  it('draws every legend outside the plot area, one row per series, so no label covers a line', async () => {
    const root = await grpoRun();
    const file = join(root, 'c.svg');
    expect((await runInProcess(['plot', root, '--out', file])).code).toBe(0);
    const svg = (await readFile(file, 'utf8')).replace(/^<\?xml[^>]*>\n/, '');
    // Chromium lays the text out; the page writes what it measured where --dump-dom prints it.
    const page = join(root, 'measure.html');
    await writeFile(
      page,
      `<!doctype html><body>${svg}<pre id="out"></pre><script>
      const boxes = (nodes) => [...nodes].map((n) => n.getBBox());
      const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      const panels = [...document.querySelectorAll('svg svg')].filter((p) => p.querySelector('.plot-area'));
      const found = panels.map((p) => {
        const area = p.querySelector('.plot-area').getBBox();
        const legends = boxes(p.querySelectorAll('.legend'));
        return { legends: legends.length, onArea: legends.filter((b) => meets(b, area)).length,
          onEachOther: legends.filter((b, i) => legends.some((c, j) => j !== i && meets(b, c))).length };
      });
      document.getElementById('out').textContent = JSON.stringify(found);
      </script></body>`,
    );
    const dom = await renderedDom(pathToFileURL(page).href);
    const found = JSON.parse(/<pre id="out">(.*?)<\/pre>/.exec(dom)![1]!.replaceAll('&quot;', '"'));
    // Reward (1 series), success by task (2), loss (1).
    expect(found).toEqual([
      { legends: 1, onArea: 0, onEachOther: 0 },
      { legends: 2, onArea: 0, onEachOther: 0 },
      { legends: 1, onArea: 0, onEachOther: 0 },
    ]);
  }, 120_000);

  it('never draws a running total on the axis of per-update values', async () => {
    const root = await tempDir();
    const report = new RunReport({ jsonlPath: join(root, 'metrics.jsonl') });
    for (const step of [1, 2, 3]) {
      const totals = { 'groups/submitted': 40 * step, 'groups/stale': 5 * step, 'groups/in_flight': 8 };
      await report.record({
        step,
        version: step,
        metrics: { 'staleness/mean': 0.5, 'staleness/max': 1, ...totals },
        successByTask: {},
      });
    }
    const file = join(root, 'c.svg');
    expect((await runInProcess(['plot', root, '--out', file])).code).toBe(0);
    const panels = (await readFile(file, 'utf8')).split('<svg ').slice(2);
    const legends = (title: string) =>
      [...panels.find((p) => p.includes(`>${title}</text>`))!.matchAll(/class="legend"[^>]*>([^<]+)</g)].map(
        (m) => m[1],
      );
    expect(legends('Staleness (versions behind)')).toEqual(['staleness/mean', 'staleness/max']);
    expect(legends('Groups, run totals')).toEqual(['groups/submitted', 'groups/stale']);
    expect(legends('Groups in flight')).toEqual(['in_flight']);
  });

  it('writes a PNG of the SVG at its size', async () => {
    const root = await grpoRun();
    const svgPlot = await runInProcess(['plot', root, '--out', join(root, 'c.svg')]);
    expect(svgPlot.code, svgPlot.stderr).toBe(0);
    const [, width, height] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(
      await readFile(join(root, 'c.svg'), 'utf8'),
    )!;
    const file = join(root, 'curves.png');
    const plot = await runInProcess(['plot', root, '--out', file]);
    expect(plot.code, plot.stderr).toBe(0);
    const png = await readFile(file);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    // IHDR, the first chunk: width and height as big-endian 32-bit integers.
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([Number(width), Number(height)]);
  }, 120_000);

  it('names what to install when no Chromium is found', async () => {
    await expect(svgToPng('<svg/>', { width: 10, height: 10 }, null)).rejects.toThrow(
      new NoChromiumError(
        'no Chromium to render the PNG: install chromium-headless-shell (apt) or set CHROMIUM_PATH; .svg and .html need none',
      ),
    );
    expect(findChromium({ env: { CHROMIUM_PATH: '/usr/bin/chromium' } }).path).toBe('/usr/bin/chromium');
  });
});
