// A success-rate curve as a self-contained SVG (no plotting library needed to read a bench's result).

const W = 640;
const H = 360;
const PAD = { left: 52, right: 16, top: 34, bottom: 42 };

/** points: [{t_s, success, rolling_success}]; success is drawn as dots, the rolling rate as a line. */
export function successCurveSvg(points, { target = null, title = 'success rate' } = {}) {
  const tMax = Math.max(60, ...points.map((p) => p.t_s));
  const x = (t) => PAD.left + (t / tMax) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - v * (H - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (v) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>` +
        `<text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11">${v}</text>`,
    )
    .join('');
  const step = tMax > 600 ? 120 : 60;
  const ticks = Array.from({ length: Math.floor(tMax / step) + 1 }, (_, i) => i * step)
    .map((t) => `<text x="${x(t)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="11">${t / 60}</text>`)
    .join('');
  const dots = points
    .map((p) => `<circle cx="${x(p.t_s).toFixed(1)}" cy="${y(p.success).toFixed(1)}" r="2.5" fill="#9ab"/>`)
    .join('');
  const line = points.map((p) => `${x(p.t_s).toFixed(1)},${y(p.rolling_success).toFixed(1)}`).join(' ');
  const goal =
    target === null
      ? ''
      : `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(target)}" y2="${y(target)}" stroke="#c44" stroke-dasharray="5,4"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${escape(title)}</text>
${grid}${ticks}${goal}${dots}
<polyline points="${line}" fill="none" stroke="#246" stroke-width="2"/>
<text x="${W / 2}" y="${H - 8}" text-anchor="middle" font-size="12">minutes</text>
<text x="14" y="${H / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 14 ${H / 2})">success rate (dots: per update, line: rolling)</text>
</svg>
`;
}

const escape = (text) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
