import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { curvesPage, curvesSvg, NoChromiumError, RunReport, svgToPng } from '../../rl/report/index.js';
import { defineCommand, UsageError } from '../command.js';
import { METRICS_FILE } from './step-report.js';

export const plotCommand = defineCommand({
  name: 'plot',
  summary: "Draw a run's training curves into one self-contained HTML, SVG or PNG file",
  description: [
    "Reads a run's metrics.jsonl (grpo's --output-dir, or sft's and dpo's --out) and writes the",
    'curves page a grpo run serves at /curves, with the run inside it: one HTML file with no',
    'external scripts, styles or fonts, which any browser opens. Panels with no data are left out;',
    'lines that do not parse are skipped and counted. An --out ending in .svg writes the same panels',
    'as one SVG file; .png renders that SVG with a headless Chromium (CHROMIUM_PATH, else the',
    'chromium-headless-shell or chromium package).',
  ].join('\n'),
  positionals: [{ name: 'run-dir', help: 'The run folder holding metrics.jsonl (or the .jsonl file itself)' }],
  options: {
    out: {
      kind: 'string',
      valueName: 'FILE.html|.svg|.png',
      help: 'Where to write the curves; the extension picks the format',
      defaultText: 'RUN_DIR/curves.html',
    },
  },
  examples: [
    'gauntlet-trainer plot runs/sft-full',
    'gauntlet-trainer plot runs/grpo --out grpo-curves.html',
    'gauntlet-trainer plot runs/dpo --out dpo-curves.png',
  ],
  async run(context) {
    const given = resolve(context.positionals[0]!);
    const isFile = await stat(given).then(
      (s) => s.isFile(),
      () => false,
    );
    const jsonl = isFile ? given : join(given, METRICS_FILE);
    const out = resolve(context.options.out ?? join(isFile ? resolve(given, '..') : given, 'curves.html'));
    const format = /\.(html|svg|png)$/.exec(out)?.[1];
    if (!format) throw new UsageError(`plot: --out ${out} must end in .html, .svg or .png`, 'out');
    const readable = await readFile(jsonl, 'utf8').then(
      () => true,
      () => false,
    );
    if (!readable) throw new UsageError(`plot: ${given} holds no readable ${METRICS_FILE}`);
    const report = new RunReport({ jsonlPath: jsonl, log: (line) => context.io.err(`plot: ${line}`) });
    const updates = (await report.resume(), report.curves());
    if (updates.length === 0) throw new UsageError(`plot: ${jsonl} has no updates to draw`);
    const run = { name: basename(isFile ? resolve(given, '..') : given), updates };
    await writeFile(out, await render(format, run));
    context.io.out(
      `Wrote the curves of ${updates.length} updates (step ${updates[0]!.step} to ${updates.at(-1)!.step}) to ${out}`,
    );
  },
});

async function render(format: string, run: Parameters<typeof curvesPage>[0]): Promise<string | Buffer> {
  if (format === 'html') return curvesPage(run);
  const { svg, width, height } = curvesSvg(run);
  if (format === 'svg') return svg;
  try {
    return await svgToPng(svg, { width, height });
  } catch (error) {
    if (error instanceof NoChromiumError) throw new UsageError(`plot: ${error.message}`);
    throw error;
  }
}
