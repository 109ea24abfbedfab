import type { Rng } from '../rng.js';
import { defineChallenge } from '../challenge.js';
import { WORDS } from './words.js';

interface Panel {
  name: string;
  children?: Panel[];
}

interface Params {
  panels: Panel[];
  path: string[];
}

/** A tree of panels, each in its own open shadow root; only the leaf at the stated path reveals. */
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
    return { panels, path };
  },
  render: (ctx) => {
    const { panels, path } = ctx.params;
    ctx.instruct(
      `The code is inside nested panels, each in its own shadow root. Go into ${path.map((p) => `"${p}"`).join(' › ')} and press "Reveal code" inside the innermost panel "${path[path.length - 1]}". The other panels are empty.`,
    );
    const build = (level: Panel[], parent: ParentNode, trail: string[]) => {
      for (const panel of level) {
        const host = ctx.el('div', { class: 'shadow-host' });
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
          const button = ctx.el('button', { type: 'button' }, 'Reveal code');
          button.addEventListener('click', () => {
            if (here.join('/') === path.join('/')) ctx.reveal(undefined, section);
            else ctx.fail(`Panel ${here.join(' › ')} is empty.`);
          });
          section.append(button);
        }
        parent.append(host);
      }
    };
    build(panels, ctx.area, []);
  },
});

function growPanels(rng: Rng, names: string[], depth: number, width: number): Panel[] {
  return Array.from({ length: rng.int(2, width) }, () => {
    const name = names.pop()!;
    return depth > 1 ? { name, children: growPanels(rng, names, depth - 1, width) } : { name };
  });
}
