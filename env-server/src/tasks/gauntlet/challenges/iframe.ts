import { defineChallenge } from '../challenge.js';
import { WORDS } from './words.js';

interface Params {
  /** Names of the nested frames, outermost first. */
  chain: string[];
  decoy: string;
  decoyFirst: boolean;
}

/**
 * Frames inside frames (srcdoc documents, so each is a real navigated frame); the innermost
 * holds the real "Reveal code" button, a sibling frame a decoy one. The code is revealed inside
 * the innermost frame's document.
 */
export const iframe = defineChallenge<Params>({
  type: 'iframe',
  title: 'Nested frames',
  generate(rng) {
    const names = rng.sample(WORDS, 4);
    return { chain: names.slice(0, rng.int(2, 3)), decoy: names[3]!, decoyFirst: rng.chance(0.5) };
  },
  render: (ctx) => {
    const { chain, decoy, decoyFirst } = ctx.params;
    const innermost = chain[chain.length - 1]!;
    ctx.instruct(
      `The code is in the frame "${innermost}", nested as ${chain.map((c) => `"${c}"`).join(' › ')}. Press "Reveal code" inside that frame. The frame "${decoy}" is a decoy.`,
    );
    const attr = (html: string) => html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const frameTag = (name: string, height: number, inner: string) =>
      `<iframe title="Frame ${name}" data-frame="${name}" style="width: 100%; height: ${height}px; border: 2px solid #779; box-sizing: border-box;" srcdoc="${attr(`<!DOCTYPE html><body style="margin: 6px; font: 14px system-ui, sans-serif;"><h4 style="margin: 0 0 4px">Frame ${name}</h4>${inner}</body>`)}"></iframe>`;
    let html = '<button type="button">Reveal code</button>';
    chain
      .slice()
      .reverse()
      .forEach((name, i) => (html = frameTag(name, 110 + 100 * i, html)));
    const decoyHtml = frameTag(decoy, 90, '<button type="button">Reveal code</button>');
    const holder = ctx.el('div', {});
    holder.innerHTML = decoyFirst ? decoyHtml + html : html + decoyHtml;
    let pending = chain.length + 1;
    // srcdoc frames load on their own: wire each document's buttons (and its child frames) once it is there.
    const wire = (frame: HTMLIFrameElement) => {
      const onLoad = () => {
        const doc = frame.contentDocument;
        if (!doc || !ctx.live()) return;
        const name = frame.dataset['frame']!;
        for (const button of doc.querySelectorAll('body > button')) {
          button.addEventListener('click', () =>
            name === innermost ? ctx.reveal(undefined, doc.body) : ctx.fail(`Frame "${name}" holds no code.`),
          );
        }
        doc.querySelectorAll('iframe').forEach((child) => wire(child));
        if (--pending === 0) ctx.say('All frames loaded.');
      };
      // A child frame finishes loading before its parent's load event, so it may be ready already.
      const doc = frame.contentDocument;
      if (doc?.readyState === 'complete' && doc.URL === 'about:srcdoc') onLoad();
      else frame.addEventListener('load', onLoad, { once: true });
    };
    holder.querySelectorAll('iframe').forEach((frame) => wire(frame));
    ctx.area.append(holder);
    ctx.say('Frames loading.');
  },
});
