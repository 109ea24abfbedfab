import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  /** Names of the nested frames, outermost first. */
  chain: string[];
  /** Sibling frames beside the chain (at `at` among them), each with the same buttons. */
  decoys: string[];
  at: number;
  press: string;
  /** The buttons of each leaf frame (decoys in order, then the innermost), shuffled per frame. */
  labels: string[][];
}

const LABELS = ['Open', 'Show', 'Unlock', 'Check', 'Read', 'Reveal'];

/**
 * Frames inside frames (srcdoc documents, so each is a real navigated frame); the innermost
 * and three sibling frames hold the same few buttons, each in its own order; only the stated
 * button of the innermost frame reveals (inside that frame's document), any other locks.
 */
export const iframe = defineChallenge<Params>({
  type: 'iframe',
  title: 'Nested frames',
  generate(rng) {
    const names = rng.sample(WORDS, 6);
    const buttons = rng.sample(LABELS, 5);
    return {
      chain: names.slice(0, rng.int(2, 3)),
      decoys: names.slice(3),
      at: rng.int(0, 3),
      press: rng.pick(buttons),
      labels: Array.from({ length: 4 }, () => rng.shuffle(buttons)),
    };
  },
  render: (ctx) => {
    const { chain, decoys, at, press, labels } = ctx.params;
    const innermost = chain[chain.length - 1]!;
    ctx.instruct(
      `The code is in the frame "${innermost}", nested as ${chain.map((c) => `"${c}"`).join(' › ')}. Press "${press}" inside that frame. Any other button, in any frame, locks the puzzle.`,
    );
    // Disabled until wired: a press before its frame is ready must not count as a free try.
    const buttons = (row: string[]) => row.map((label) => `<button type="button" disabled>${label}</button>`).join(' ');
    const attr = (html: string) => html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const frameTag = (name: string, height: number, inner: string) =>
      `<iframe title="Frame ${name}" data-frame="${name}" style="width: 100%; height: ${height}px; border: 2px solid #779; box-sizing: border-box;" srcdoc="${attr(`<!DOCTYPE html><body style="margin: 6px; font: 14px system-ui, sans-serif;"><h4 style="margin: 0 0 4px">Frame ${name}</h4>${inner}</body>`)}"></iframe>`;
    let html = buttons(labels[3]!);
    chain
      .slice()
      .reverse()
      .forEach((name, i) => (html = frameTag(name, 110 + 100 * i, html)));
    const siblings = decoys.map((name, i) => frameTag(name, 80, buttons(labels[i]!)));
    siblings.splice(at, 0, html);
    const holder = ctx.el('div', {});
    holder.innerHTML = siblings.join('');
    let pending = chain.length + decoys.length;
    // srcdoc frames load on their own: wire each document's buttons (and its child frames) once it is there.
    const wire = (frame: HTMLIFrameElement) => {
      const onLoad = () => {
        const doc = frame.contentDocument;
        if (!doc || !ctx.live()) return;
        const name = frame.dataset['frame']!;
        for (const button of doc.querySelectorAll('body > button')) {
          button.removeAttribute('disabled');
          button.addEventListener('click', () => {
            // Clicks inside frames never pass the puzzle area's lock: check it here.
            if (ctx.locked()) return;
            if (name === innermost && button.textContent === press) ctx.reveal(undefined, doc.body);
            else ctx.lock(`"${button.textContent}" in frame "${name}" was the wrong button.`);
          });
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
