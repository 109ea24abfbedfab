import { FRAME_PLACEHOLDER, serializeFrameInPage } from './html-in-page.js';
import type { PageMarks } from './mark.js';

/**
 * Pruned HTML of the whole page: each marked frame's text replaces its placeholder line under its
 * frame element, indented to that depth. Uses the text marking already produced (`markPage` with
 * `html: true`, one evaluate per frame in all); otherwise serializes every frame now, all at once.
 * A child frame that fails (detached meanwhile) leaves its frame element empty.
 */
export async function prunedHtml(marks: PageMarks): Promise<string> {
  const byPrefix = marks.htmlByPrefix ?? (await serializeFrames(marks));
  return splice(byPrefix.get('') ?? '', byPrefix, new Set(['']));
}

async function serializeFrames(marks: PageMarks): Promise<Map<string, string>> {
  const texts = await Promise.all(
    marks.frames.map(({ frame }, i) => {
      const text = frame.evaluate(serializeFrameInPage, FRAME_PLACEHOLDER);
      return i === 0 ? text : text.catch(() => '');
    }),
  );
  return new Map(marks.frames.map(({ prefix }, i) => [prefix, texts[i] ?? '']));
}

function splice(html: string, byPrefix: Map<string, string>, open: Set<string>): string {
  if (!html.includes(FRAME_PLACEHOLDER)) return html;
  const out: string[] = [];
  for (const line of html.split('\n')) {
    const at = line.indexOf(FRAME_PLACEHOLDER);
    if (at < 0) {
      out.push(line);
      continue;
    }
    const prefix = line.slice(at + FRAME_PLACEHOLDER.length);
    const child = byPrefix.get(prefix);
    // `open` guards against a frame claiming its own ancestor's prefix (a page rewriting bids).
    if (!child || open.has(prefix)) continue;
    const indent = line.slice(0, at);
    const inner = splice(child, byPrefix, new Set([...open, prefix]));
    for (const childLine of inner.split('\n')) out.push(indent + childLine);
  }
  return out.join('\n');
}
