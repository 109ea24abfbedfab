import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeTinyModel } from '../../src/model/tiny.js';
import { RunReport } from '../../src/rl/report/index.js';
import { renderedDom } from '../support/chromium.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

// `plot` on a finished run's metrics.jsonl: a finished sft run's, and grpo-shaped rows written by
// the run report, drawn by Chromium from the one file it writes.
describe('gauntlet-trainer plot', () => {
  it("draws a finished sft run's curves into one self-contained page", async () => {
    const root = await tempDir();
    const model = join(root, 'model');
    await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2 });
    const data = join(root, 'data.jsonl');
    await writeFile(data, `${JSON.stringify({ prompt: 'cat says', completion: ' meow' })}\n`);
    const out = join(root, 'sft-run');
    const sft = await runInProcess(['sft', '--model', model, '--data', data, '--out', out, '--steps', '5']);
    expect(sft.code, sft.stderr).toBe(0);
    await appendFile(join(out, 'metrics.jsonl'), 'not json\n');

    const plot = await runInProcess(['plot', out]);
    expect(plot.code, plot.stderr).toBe(0);
    const page = join(out, 'curves.html');
    expect(plot.stdout).toBe(`Wrote the curves of 5 updates (step 1 to 5) to ${page}`);
    expect(plot.stderr).toMatch(/plot: run report: skipped 1 unreadable line/);
    const html = await readFile(page, 'utf8');
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//); // nothing fetched from elsewhere
    expect(html).not.toMatch(/fetch\('curves\.json'\)[^]*setInterval/); // drawn once, no polling

    const dom = await renderedDom(pathToFileURL(page).href);
    expect(dom).toContain('Training curves: sft-run');
    expect(dom).toContain('update 5 (v5)');
    // Loss, gradient norm and learning rate; the GRPO panels without data are left out.
    expect(dom.match(/<polyline/g)?.length).toBe(3);
    for (const title of ['Loss', 'Gradient norm', 'Learning rate']) expect(dom).toContain(`>${title}</text>`);
    expect(dom).not.toContain('>no data yet</text>');
    expect(dom).not.toContain('>Reward</text>');
  }, 120_000);

  it('draws grpo rows too; a task name is text, never markup; --out names the file', async () => {
    const root = await tempDir();
    const report = new RunReport({ jsonlPath: join(root, 'metrics.jsonl') });
    const hostile = '</script><b id="x">bold</b>';
    for (const step of [1, 2])
      await report.record({
        step,
        version: step,
        metrics: { reward: step / 4, loss: 1 / step },
        successByTask: { [hostile]: step / 2 },
      });
    const page = join(root, 'grpo.html');
    const plot = await runInProcess(['plot', join(root, 'metrics.jsonl'), '--out', page]);
    expect(plot.code, plot.stderr).toBe(0);
    const dom = await renderedDom(pathToFileURL(page).href);
    expect(dom).not.toContain('<b id="x">');
    expect(dom).toContain('&lt;/script&gt;&lt;b id="x"&gt;bold&lt;/b&gt;');
    // Reward, success by task, loss.
    expect(dom.match(/<polyline/g)?.length).toBe(3);
  }, 120_000);

  it('a folder without metrics.jsonl, or --out that is not .html, .svg or .png, is a usage error (exit 2)', async () => {
    const root = await tempDir();
    const missing = await runInProcess(['plot', root]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      expect.stringContaining(`plot: ${root} holds no readable metrics.jsonl`),
    ]);
    await writeFile(join(root, 'metrics.jsonl'), '');
    const empty = await runInProcess(['plot', root]);
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining('has no updates to draw')]);
    const pdf = await runInProcess(['plot', root, '--out', join(root, 'x.pdf')]);
    expect([pdf.code, pdf.stderr]).toEqual([2, expect.stringContaining('must end in .html, .svg or .png')]);
  });
});
