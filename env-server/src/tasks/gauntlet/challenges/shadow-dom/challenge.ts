import type { Rng } from '../../rng.js';
import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Panel {
  name: string;
  children?: Panel[];
}

interface Params {
  panels: Panel[];
  path: string[];
  /** The button to press in the innermost panel; every leaf panel holds all of `labels`, shuffled. */
  press: string;
  labels: string[][];
}

const LABELS = ['Open', 'Show', 'Unlock', 'Check', 'Read', 'Reveal'];

/**
 * A tree of panels, each in its own open shadow root; every leaf holds the same few buttons in
 * its own order, and only the stated button of the leaf at the stated path reveals.
 */
export const shadowDom = defineChallenge<Params>({
  type: 'shadow_dom',
  title: 'Shadow DOM',
  generate(rng) {
    const depth = rng.int(2, 3);
    const names = rng.shuffle(WORDS);
    const panels = growPanels(rng, names, depth, depth === 3 ? 2 : 3);
    const path: string[] = [];
    for (let level: Panel[] | undefined = panels; level;) {
      const next: Panel = rng.pick(level);
      path.push(next.name);
      level = next.children;
    }
    const leaves = countLeaves(panels);
    const buttons = rng.sample(LABELS, 4);
    return {
      panels,
      path,
      press: rng.pick(buttons),
      labels: Array.from({ length: leaves }, () => rng.shuffle(buttons)),
    };
  },
  render: (ctx) => {
    const { panels, path, press, labels } = ctx.params;
    ctx.instruct(
      `The code is inside nested panels. Go into ${path.map((p) => `"${p}"`).join(' › ')} and press "${press}" inside the innermost panel "${path[path.length - 1]}". Any other button locks the puzzle.`,
    );
    let leaf = 0;
    const build = (level: Panel[], parent: ParentNode, trail: string[]) => {
      for (const panel of level) {
        const host = ctx.el('div', { class: 'panel-host' });
        const root = host.attachShadow({ mode: 'open' });
        const section = ctx.el(
          'section',
          { 'aria-label': panel.name, style: 'border: 1px solid #99b; margin: 6px; padding: 6px;' },
          ctx.el('h4', { style: 'margin: 0 0 4px' }, `Panel ${panel.name}`),
        );
        root.append(section);
        const here = [...trail, panel.name];
        if (panel.children) build(panel.children, section, here);
        else {
          for (const label of labels[leaf++]!) {
            const button = ctx.el('button', { type: 'button' }, label);
            button.addEventListener('click', () => {
              if (here.join('/') === path.join('/') && label === press) ctx.reveal(undefined, section);
              else ctx.lock(`"${label}" in panel ${here.join(' › ')} was the wrong button.`);
            });
            section.append(button, ' ');
          }
        }
        parent.append(host);
      }
    };
    build(panels, ctx.area, []);
  },
});

function countLeaves(panels: Panel[]): number {
  return panels.reduce((n, p) => n + (p.children ? countLeaves(p.children) : 1), 0);
}

function growPanels(rng: Rng, names: string[], depth: number, width: number): Panel[] {
  return Array.from({ length: rng.int(2, width) }, () => {
    const name = names.pop()!;
    return depth > 1 ? { name, children: growPanels(rng, names, depth - 1, width) } : { name };
  });
}
