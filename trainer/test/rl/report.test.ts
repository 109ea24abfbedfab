import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunReport } from '../../src/rl/report/index.js';
import { renderedDom } from '../support/chromium.js';

let dir = '';
let server: Server | undefined;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  }
  await rm(dir, { recursive: true, force: true });
});

async function serve(report: RunReport): Promise<string> {
  server = createServer((req, res) => {
    if (!report.handler(req, res)) res.writeHead(404).end('not found\n');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const update = (step: number) => ({
  step,
  version: step,
  time: 1_700_000_000_000 + step * 2000,
  metrics: {
    reward: 0.1 * step,
    kl: 0.001 * step,
    'clip_ratio/low_mean': 0.02,
    'clip_ratio/high_mean': 0.03,
    'staleness/mean': 0.5,
    'sampling/importance_sampling_ratio/max': step === 2 ? NaN : 1.5,
  },
  successByTask: { 'click-test': step / 4, 'click-button': 1 - step / 4 },
  trajectories: 16,
  envSteps: 40,
  phase_ms: { update: 120 },
});

describe('RunReport over real HTTP', () => {
  it('writes JSONL, serves Prometheus gauges, curves.json and a curves page that draws in Chromium', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-report-'));
    const jsonlPath = join(dir, 'run', 'metrics.jsonl');
    const lines: string[] = [];
    const report = new RunReport({ jsonlPath, log: (l) => lines.push(l) });
    const url = await serve(report);
    for (const step of [1, 2, 3]) await report.record(update(step));

    const written = (await readFile(jsonlPath, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(written).toHaveLength(3);
    expect(written[1]).toMatchObject({ step: 2, successByTask: { 'click-test': 0.5 }, phase_ms: { update: 120 } });
    expect(written[1].metrics['sampling/importance_sampling_ratio/max']).toBeNull();
    expect(lines[2]).toBe(
      'update 3 (v3) | reward 0.300 | success 0.50 [click-test 0.75, click-button 0.25] | kl 0.0030 | 8.00 traj/s 20.0 env steps/s 2.0 s/update',
    );

    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain('gauntlet_grpo_step 3');
    expect(metrics).toContain('gauntlet_grpo_updates_total 3');
    expect(metrics).toContain('gauntlet_grpo_clip_ratio_low_mean 0.02');
    expect(metrics).toContain('gauntlet_grpo_sampling_importance_sampling_ratio_max 1.5');
    expect(metrics).toContain('gauntlet_grpo_success_rate_by_task{task="click-test"} 0.75');
    expect(metrics).toContain('gauntlet_grpo_reward 0.30000000000000004');

    const curves = (await (await fetch(`${url}/curves.json`)).json()) as { updates: { step: number }[] };
    expect(curves.updates.map((u) => u.step)).toEqual([1, 2, 3]);
    const page = await fetch(`${url}/curves`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//); // nothing fetched from elsewhere
    expect((await fetch(`${url}/other`)).status).toBe(404);

    // The page's script really draws: Chromium runs it and prints the DOM it built.
    const stdout = await renderedDom(`${url}/curves`);
    expect(stdout).toContain('update 3 (v3)');
    // reward 1, success by task 2, KL 1, clip ratios 2, staleness 1; the loss panel says it has no data.
    expect(stdout.match(/<polyline/g)?.length).toBe(7);
    expect(stdout).toContain('>no data yet</text>');
    for (const name of ['click-test', 'clip_ratio/low_mean', 'staleness/mean', 'kl'])
      expect(stdout).toContain(`>${name}</text>`);
  });

  it('a run that does not compute the KL (β = 0) says so on its KL panel, instead of waiting for data', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-report-'));
    const report = new RunReport({ jsonlPath: join(dir, 'metrics.jsonl') });
    const url = await serve(report);
    const dumped = () => renderedDom(`${url}/curves`);
    const notComputed = '>not computed: β = 0 (grpo --kl-metric logs it without a KL term in the loss)</text>';
    expect(await dumped()).not.toContain(notComputed);
    for (const step of [1, 2]) {
      const { kl: _kl, ...metrics } = update(step).metrics;
      await report.record({ ...update(step), metrics });
    }
    const page = await dumped();
    expect(page).toContain(notComputed);
    expect(page).toContain('>not computed: --advantage grpo</text>');
    expect(page.match(/<polyline/g)?.length).toBe(6);
  });

  it('a gigpo run draws its anchor groups: how many, their mean size, the share of turns in one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-report-'));
    const report = new RunReport({ jsonlPath: join(dir, 'metrics.jsonl') });
    const url = await serve(report);
    for (const step of [1, 2]) {
      const gigpo = { 'gigpo/anchor_groups': 3 + step, 'gigpo/anchor_group_size': 2.5, 'gigpo/anchored_turns': 0.4 };
      await report.record({ ...update(step), metrics: { ...update(step).metrics, ...gigpo } });
    }
    const page = await renderedDom(`${url}/curves`);
    for (const name of ['groups', 'mean size', 'share']) expect(page).toContain(`>${name}</text>`);
    expect(page).not.toContain('>not computed: --advantage grpo</text>');
    // The 7 series of the first test, and 3 more.
    expect(page.match(/<polyline/g)?.length).toBe(10);
    const written = (await readFile(join(dir, 'metrics.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(written[1]!).metrics).toMatchObject({ 'gigpo/anchor_groups': 5, 'gigpo/anchored_turns': 0.4 });
  });

  it('a resumed report continues the curves from the JSONL file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-report-'));
    const jsonlPath = join(dir, 'metrics.jsonl');
    const first = new RunReport({ jsonlPath });
    for (const step of [1, 2]) await first.record(update(step));
    await appendFile(jsonlPath, '{"step": "torn li\n');
    const lines: string[] = [];
    const again = new RunReport({ jsonlPath, log: (l) => lines.push(l) });
    expect(await again.resume()).toBe(2);
    expect(lines).toEqual([`run report: skipped 1 unreadable line(s) of ${jsonlPath}`]);
    await again.record(update(3));
    expect(again.curves().map((u) => u.step)).toEqual([1, 2, 3]);
  });

  it('resuming from a checkpoint drops the updates after it from the curves and the file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-report-'));
    const jsonlPath = join(dir, 'metrics.jsonl');
    const first = new RunReport({ jsonlPath });
    for (const step of [1, 2, 3, 4]) await first.record(update(step));
    // The run crashed after update 4; its last checkpoint is of version 2.
    const lines: string[] = [];
    const again = new RunReport({ jsonlPath, log: (l) => lines.push(l) });
    expect(await again.resume(2)).toBe(2);
    expect(lines).toEqual(['run report: dropped 2 update(s) after version 2; the run records them again']);
    for (const step of [3, 4]) await again.record(update(step));
    const steps = (await readFile(jsonlPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { step: number }).step);
    expect(steps).toEqual([1, 2, 3, 4]);
    // A fresh start (no checkpoint yet) keeps nothing of the attempt before it.
    expect(await new RunReport({ jsonlPath }).resume(0)).toBe(0);
    expect(await readFile(jsonlPath, 'utf8')).toBe('');
  });

  it('/curves says how to view the kept episodes: the exact command, and a link with --viewer-url', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-report-'));
    const jsonlPath = join(dir, 'metrics.jsonl');
    const page = async (viewer: ConstructorParameters<typeof RunReport>[0]['viewer']) => {
      const url = await serve(new RunReport({ jsonlPath, ...(viewer ? { viewer } : {}) }));
      const html = await (await fetch(`${url}/curves`)).text();
      server!.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
      return html;
    };
    const plain = await page({ path: '/runs/grpo/trajectories.jsonl', groups: 4 });
    expect(plain).toContain(
      'the last 4 group(s) consumed are kept in /runs/grpo/trajectories.jsonl; see them with <code id="view-command">gauntlet-agent view /runs/grpo/trajectories.jsonl</code></p>',
    );
    expect(plain).not.toContain('<a ');
    // A path that needs quoting for the shell, and a URL with characters that need escaping in HTML.
    const linked = await page({
      path: "/runs/a b&c's/trajectories.jsonl",
      groups: 2,
      url: 'http://127.0.0.1:8765/?a="<x>"',
    });
    expect(linked).toContain(
      `<code id="view-command">gauntlet-agent view &#39;/runs/a b&#38;c&#39;\\&#39;&#39;s/trajectories.jsonl&#39;</code>`,
    );
    expect(linked).toContain(
      'open the viewer: <a href="http://127.0.0.1:8765/?a=&#34;&#60;x&#62;&#34;">http://127.0.0.1:8765/?a=&#34;&#60;x&#62;&#34;</a>',
    );
    expect(await page({ path: null, groups: 0 })).toContain(
      'Episodes are not kept: run with <code>--keep-trajectories N</code>',
    );
    expect(await page(undefined)).not.toContain('id="viewer"');
  });
});
