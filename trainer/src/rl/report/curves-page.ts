import type { RecordedUpdate } from './update.js';

/**
 * GET /curves: one self-contained page (no external scripts, styles or fonts) that fetches
 * curves.json every few seconds and draws each panel as inline SVG. Series are picked by metric
 * name; task and run names are set as text nodes, never parsed as HTML. `plot` writes the same
 * page with a finished run's updates inside it (curvesPage), drawn once, its empty panels left out.
 */
export const CURVES_REFRESH_MS = 3000;

/** The chart code: the live page, the plotted page and the SVG file (curves-svg.ts) all run it. */
export const CURVES_SCRIPT = String.raw`
const PANELS = [
  { title: 'Reward', pick: (u) => ({ reward: u.metrics.reward, 'reward_std': u.metrics.reward_std }) },
  { title: 'Success rate by task', pick: (u) => Object.assign({}, u.successByTask) },
  {
    title: 'KL',
    pick: (u) => ({ kl: u.metrics.kl }),
    missing: 'not computed: β = 0 (grpo --kl-metric logs it without a KL term in the loss)',
  },
  { title: 'Clip ratios', pick: (u) => only(u.metrics, (k) => k.startsWith('clip_ratio/')) },
  // Per-update values and running totals never share an axis: a total dwarfs the values beside it.
  { title: 'Staleness (versions behind)', pick: (u) => only(u.metrics, (k) => k.startsWith('staleness/')) },
  {
    title: 'Groups, run totals',
    pick: (u) => only(u.metrics, (k) => k.startsWith('groups/') && k !== 'groups/in_flight'),
  },
  { title: 'Groups in flight', pick: (u) => ({ in_flight: u.metrics['groups/in_flight'] }) },
  {
    title: 'Anchor groups (GiGPO)',
    pick: (u) => ({
      groups: u.metrics['gigpo/anchor_groups'],
      'mean size': u.metrics['gigpo/anchor_group_size'],
    }),
    missing: 'not computed: --advantage grpo (gigpo groups turns by the page they saw)',
  },
  {
    title: 'Turns in an anchor group (GiGPO)',
    pick: (u) => ({ share: u.metrics['gigpo/anchored_turns'] }),
    missing: 'not computed: --advantage grpo',
  },
  { title: 'Loss', pick: (u) => ({ loss: u.metrics.loss }) },
  { title: 'DPO rewards', pick: (u) => only(u.metrics, (k) => k.startsWith('rewards/')) },
  { title: 'Gradient norm', pick: (u) => ({ grad_norm: u.metrics.grad_norm }) },
  { title: 'Learning rate', pick: (u) => ({ learning_rate: u.metrics.learning_rate }) },
];
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];
const NS = 'http://www.w3.org/2000/svg';
function only(metrics, keep) {
  return Object.fromEntries(Object.entries(metrics).filter(([k]) => keep(k)));
}
function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}
function panel({ title, pick, missing }, updates) {
  const series = new Map();
  for (const u of updates)
    for (const [name, y] of Object.entries(pick(u)))
      if (typeof y === 'number') (series.get(name) || series.set(name, []).get(name)).push([u.step, y]);
  // The legend has a row per series above the plot area, so it never covers a line.
  const [W, L, R, B, PLOT_H] = [460, 48, 10, 34, 162];
  const T = 26 + 14 * series.size;
  const H = T + PLOT_H + B;
  const svg = el('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H });
  svg.append(el('text', { x: L, y: 16, 'font-weight': 'bold' }, title));
  const points = [...series.values()].flat();
  if (points.length === 0) {
    // Updates without the metric: the run does not compute it, which waiting will not change.
    const why = updates.length > 0 && missing ? missing : 'no data yet';
    svg.append(el('text', { x: L, y: H / 2, fill: '#888', 'font-size': 11 }, why));
    return svg;
  }
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) [y0, y1] = [y0 - 0.5, y1 + 0.5];
  const sx = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const sy = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
  svg.append(el('rect', { class: 'plot-area', x: L, y: T, width: W - L - R, height: PLOT_H, fill: 'none', stroke: '#ccc' }));
  const fmt = (v) => (Math.abs(v) >= 100 || v === 0 ? v.toFixed(0) : v.toPrecision(3));
  svg.append(el('text', { x: L - 4, y: T + 10, 'text-anchor': 'end' }, fmt(y1)));
  svg.append(el('text', { x: L - 4, y: H - B, 'text-anchor': 'end' }, fmt(y0)));
  svg.append(el('text', { x: L, y: H - B + 14 }, 'step ' + x0));
  svg.append(el('text', { x: W - R, y: H - B + 14, 'text-anchor': 'end' }, 'step ' + x1));
  [...series].forEach(([name, pts], i) => {
    const color = COLORS[i % COLORS.length];
    const d = pts.map((p) => sx(p[0]).toFixed(1) + ',' + sy(p[1]).toFixed(1)).join(' ');
    svg.append(el('polyline', { points: d, fill: 'none', stroke: color, 'stroke-width': 1.5 }));
    svg.append(el('text', { class: 'legend', x: W - R, y: 34 + i * 14, fill: color, 'text-anchor': 'end' }, name));
  });
  return svg;
}
function draw(updates, skipEmpty) {
  const panels = PANELS.filter((p) => !skipEmpty || updates.some((u) => Object.values(p.pick(u)).some((y) => typeof y === 'number')));
  document.getElementById('panels').replaceChildren(...panels.map((p) => panel(p, updates)));
  const last = updates[updates.length - 1];
  document.getElementById('status').textContent = last
    ? 'update ' + last.step + ' (v' + last.version + '), ' + new Date(last.time).toLocaleTimeString()
    : 'waiting for the first update';
}
async function refresh() {
  try {
    const reply = await fetch('curves.json', { cache: 'no-store' });
    draw((await reply.json()).updates, false);
  } catch (error) {
    document.getElementById('status').textContent = 'cannot fetch curves.json: ' + error;
  }
}
`;

const LIVE = String.raw`
refresh();
setInterval(refresh, ${CURVES_REFRESH_MS});
`;

/** Where the run keeps its episodes for `gauntlet-agent view` (grpo --keep-trajectories), and the viewer's URL if given. */
export interface CurvesViewer {
  /** The kept trajectories file; null when none are kept (--keep-trajectories 0). */
  path: string | null;
  groups: number;
  /** --viewer-url: where the operator serves `gauntlet-agent view` (the trainer does not start it). */
  url?: string | undefined;
}

/** The live page a GRPO run serves at /curves; with `viewer`, a line saying how to look at the episodes behind the curves. */
export function liveCurvesPage(viewer: CurvesViewer | null = null): string {
  // A function, so a `$` in a path is never read as a replacement pattern.
  return page('GRPO training curves', LIVE).replace('<!--viewer-->', () => (viewer ? viewerLine(viewer) : ''));
}

function viewerLine(v: CurvesViewer): string {
  if (v.path === null)
    return '<p id="viewer">Episodes are not kept: run with <code>--keep-trajectories N</code> to see the last N groups in <code>gauntlet-agent view</code>.</p>';
  const command = `gauntlet-agent view ${shellWord(v.path)}`;
  const link = v.url ? ` — open the viewer: <a href="${html(v.url)}">${html(v.url)}</a>` : '';
  return `<p id="viewer">Episodes: the last ${v.groups} group(s) consumed are kept in ${html(v.path)}; see them with <code id="view-command">${html(command)}</code>${link}</p>`;
}

/** A path as one shell word: quoted when it has anything but letters, digits and / . _ - + : @. */
function shellWord(path: string): string {
  return /^[\w./+:@-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>
body { font: 13px system-ui, sans-serif; margin: 16px; color: #222; }
#panels { display: flex; flex-wrap: wrap; gap: 12px; }
svg { border: 1px solid #eee; background: #fff; font-size: 11px; }
</style>
</head>
<body>
<h1 id="title">${title}</h1>
<p id="status">loading…</p>
<!--viewer-->
<div id="panels"></div>
<script>${CURVES_SCRIPT}${script}</script>
</body>
</html>
`;
}

/**
 * A finished run's curves as one self-contained file: its updates inside the page (JSON with `<`
 * escaped, so no value can close the script), its name set as text.
 */
export function curvesPage(run: { name: string; updates: readonly RecordedUpdate[] }): string {
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return page(
    'Training curves',
    `document.getElementById('title').textContent = 'Training curves: ' + ${json(run.name)};\ndraw(${json(run.updates)}, true);\n`,
  );
}
