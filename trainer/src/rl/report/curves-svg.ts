import { runInNewContext } from 'node:vm';
import { CURVES_SCRIPT } from './curves-page.js';
import type { RecordedUpdate } from './update.js';

/**
 * A finished run's curves as one self-contained SVG file. The panels come from the same chart code
 * the /curves page runs in the browser (CURVES_SCRIPT), run here against a minimal DOM that only
 * builds element trees, so the two never draw differently; this file only lays the panels out.
 */
export function curvesSvg(run: { name: string; updates: readonly RecordedUpdate[] }): {
  svg: string;
  width: number;
  height: number;
} {
  const byId = new Map<string, FakeNode>([
    ['panels', new FakeNode('div')],
    ['status', new FakeNode('p')],
  ]);
  const document = {
    createElementNS: (_ns: string, name: string) => new FakeNode(name),
    getElementById: (id: string) => byId.get(id) ?? null,
  };
  // Plain data in, so nothing from the run's file can reach Node's globals.
  const updates = JSON.parse(JSON.stringify(run.updates)) as unknown;
  runInNewContext(`${CURVES_SCRIPT}\ndraw(updates, true);`, { document, updates, Date, Math, Object, String });
  const panels = byId.get('panels')!.children;
  const [W, GAP, HEAD, COLS] = [460, 12, 48, 2];
  const width = COLS * W + (COLS + 1) * GAP;
  // Panels grow with their legend rows: each row of the grid is as tall as its tallest panel.
  let height = HEAD;
  const placed: string[] = [];
  for (let first = 0; first < panels.length; first += COLS) {
    const row = panels.slice(first, first + COLS);
    row.forEach((svg, col) => {
      svg.attrs.set('x', String(GAP + col * (W + GAP)));
      svg.attrs.set('y', String(height));
      placed.push(svg.xml());
    });
    height += Math.max(...row.map((svg) => Number(svg.attrs.get('height')))) + GAP;
  }
  const svg = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${GAP}" y="22" font-size="18" font-weight="bold">${escapeXml(`Training curves: ${run.name}`)}</text>`,
    `<text x="${GAP}" y="38" fill="#555">${escapeXml(byId.get('status')!.textContent)}</text>`,
    ...placed,
    `</svg>`,
    '',
  ].join('\n');
  return { svg, width, height };
}

/** The few DOM calls the chart code makes, recorded as an element tree that serialises to XML. */
class FakeNode {
  readonly attrs = new Map<string, string>();
  children: FakeNode[] = [];
  textContent = '';
  constructor(readonly name: string) {}
  setAttribute(key: string, value: string): void {
    this.attrs.set(key, String(value));
  }
  append(...nodes: FakeNode[]): void {
    this.children.push(...nodes);
  }
  replaceChildren(...nodes: FakeNode[]): void {
    this.children = nodes;
  }
  xml(): string {
    const attrs = [...this.attrs].map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
    const inner = this.children.map((c) => c.xml()).join('') + escapeXml(this.textContent);
    return `<${this.name}${attrs}>${inner}</${this.name}>`;
  }
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
