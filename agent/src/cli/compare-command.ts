import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand, table, UsageError } from '@gauntlet/proto/cli';
import type { GroupMetrics, RunMetrics } from '../report/metrics.js';

export const compareCommand = defineCommand({
  name: 'compare',
  summary: 'Compare two runs: success per task and Gauntlet type, mean steps, tokens, time',
  description:
    'Reads RUN_A/metrics.json and RUN_B/metrics.json (folders written by run) and prints, per task and per Gauntlet challenge type, the success rate (of the judged episodes), mean steps, mean tokens and mean time of each run with the difference B − A; when either run has unjudged episodes (open-web runs without a goal spec), their counts too.',
  options: {
    json: {
      kind: 'boolean',
      help: 'Print one JSON object instead of the tables: per task (and "all") and per Gauntlet type, A, B and B − A',
    },
  },
  positionals: [
    { name: 'RUN_A', help: 'The first run folder (or its metrics.json)' },
    { name: 'RUN_B', help: 'The second run folder (or its metrics.json)' },
  ],
  examples: ['gauntlet-agent compare results/oracle results/api'],
  async run({ positionals, values, io }) {
    const [a, b] = [readRun(positionals[0]!, 'RUN_A'), readRun(positionals[1]!, 'RUN_B')];
    if (values.json) {
      io.out(JSON.stringify(comparison(a, b, positionals[0]!, positionals[1]!)));
      return;
    }
    const header = ['task', 'success A', 'success B', 'Δ', 'steps A', 'steps B', 'Δ'];
    const rows: string[][] = [];
    const tasks = [...new Set([...Object.keys(a.tasks), ...Object.keys(b.tasks)])];
    for (const task of tasks) rows.push(compareRow(task, a.tasks[task], b.tasks[task]));
    rows.push(compareRow('all', a.totals, b.totals));
    // Open-web runs without a goal spec: how many episodes nobody judged, apart from success.
    const unjudged = (a.totals.unjudged ?? 0) + (b.totals.unjudged ?? 0) > 0;
    const extra = unjudged ? ['unjudged A', 'unjudged B'] : [];
    const lines = rows.map((row, i) => {
      if (!unjudged) return row;
      const name = i < tasks.length ? tasks[i]! : undefined;
      const [ga, gb] = name === undefined ? [a.totals, b.totals] : [a.tasks[name], b.tasks[name]];
      return [...row, count(ga?.unjudged), count(gb?.unjudged)];
    });
    io.out(table([...header, 'tokens A', 'tokens B', 'Δ', 'time A (s)', 'time B (s)', 'Δ', ...extra], lines));
    io.out(`A: ${positionals[0]} (${describeRun(a)})`);
    io.out(`B: ${positionals[1]} (${describeRun(b)})`);
    const types = [...new Set([...Object.keys(a.gauntlet_types), ...Object.keys(b.gauntlet_types)])];
    if (types.length) {
      const typeRows: string[][] = [];
      for (const type of types) {
        const [ra, rb] = [a.gauntlet_types[type]?.success_rate, b.gauntlet_types[type]?.success_rate];
        typeRows.push([type, pct(ra), pct(rb), diff(ra, rb, pct)]);
      }
      io.out('');
      io.out(table(['gauntlet type', 'solved A', 'solved B', 'Δ'], typeRows));
    }
  },
});

/** A figure of both runs and B − A (null where either run has none). */
const pair = (a: number | undefined, b: number | undefined) => ({
  a: a ?? null,
  b: b ?? null,
  delta: a === undefined || b === undefined ? null : b - a,
});

/** The tables' figures as data: success rate, mean steps, tokens and seconds per task and in all. */
function comparison(a: RunMetrics, b: RunMetrics, pathA: string, pathB: string) {
  const figures = (ga?: GroupMetrics, gb?: GroupMetrics) =>
    Object.fromEntries(FIGURES.map(([name, of]) => [name, pair(of(ga), of(gb))]));
  const tasks = [...new Set([...Object.keys(a.tasks), ...Object.keys(b.tasks)])];
  const types = [...new Set([...Object.keys(a.gauntlet_types), ...Object.keys(b.gauntlet_types)])];
  return {
    a: { path: pathA, run: describeRun(a) },
    b: { path: pathB, run: describeRun(b) },
    tasks: Object.fromEntries(tasks.map((task) => [task, figures(a.tasks[task], b.tasks[task])])),
    all: figures(a.totals, b.totals),
    gauntlet_types: Object.fromEntries(
      types.map((type) => [
        type,
        { success_rate: pair(a.gauntlet_types[type]?.success_rate, b.gauntlet_types[type]?.success_rate) },
      ]),
    ),
  };
}

/** Which run a column is: its mode and what acted (model, and adapter when one was loaded). */
function describeRun(metrics: RunMetrics): string {
  const text = (key: string) => (typeof metrics.run[key] === 'string' ? (metrics.run[key] as string) : '');
  return [
    `mode ${text('mode') || '?'}`,
    text('model') && `model ${text('model')}`,
    text('adapter') && `adapter ${text('adapter')}`,
  ]
    .filter(Boolean)
    .join(', ');
}

function readRun(path: string, name: string): RunMetrics {
  const file = path.endsWith('.json') ? path : join(path, 'metrics.json');
  try {
    const metrics = JSON.parse(readFileSync(file, 'utf8')) as RunMetrics;
    if (!metrics.totals || !metrics.tasks) throw new Error('not a gauntlet-agent metrics.json');
    return metrics;
  } catch (error) {
    throw new UsageError(`${name}: cannot read ${file} (${(error as Error).message})`);
  }
}

type Figure = (g?: GroupMetrics) => number | undefined;
/** What a row compares, in column order. A group whose episodes were all unjudged has no success rate. */
const FIGURES: [string, Figure][] = [
  ['success_rate', (g) => (g && g.episodes > (g.unjudged ?? 0) ? g.success_rate : undefined)],
  ['mean_steps', (g) => g?.mean_steps],
  ['mean_tokens', (g) => (g && g.episodes ? (g.tokens_in + g.tokens_out) / g.episodes : undefined)],
  ['mean_seconds', (g) => (g ? g.mean_wall_ms / 1000 : undefined)],
];

function compareRow(name: string, a: GroupMetrics | undefined, b: GroupMetrics | undefined): string[] {
  return [
    name,
    ...FIGURES.flatMap(([, of], i) => {
      const show = i === 0 ? pct : num;
      return [show(of(a)), show(of(b)), diff(of(a), of(b), show)];
    }),
  ];
}

const count = (x?: number) => (x === undefined ? '-' : String(x));
const pct = (x?: number) => (x === undefined ? '-' : `${(x * 100).toFixed(0)}%`);
const num = (x?: number) => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
function diff(a: number | undefined, b: number | undefined, show: (x?: number) => string): string {
  if (a === undefined || b === undefined) return '-';
  const d = b - a;
  return `${d > 0 ? '+' : d < 0 ? '-' : '±'}${show(Math.abs(d))}`;
}
