/** Marks the line where a child frame's HTML goes; NUL never survives into serialized text. */
export const FRAME_PLACEHOLDER = '\u0000frame:';

/**
 * Runs inside one frame: the document as BrowserGym's pruned HTML, pretty-printed one node per
 * line with one space per level (like BeautifulSoup's prettify). `bid` comes first among
 * attributes; live form state (value, checked, selected) is written as attributes; comments,
 * style, link, script, br, noscript, template and empty heads are dropped; html, body, and div/span/i/p whose
 * only attribute is `bid` are unwrapped (which removes them when empty); open shadow roots are
 * inlined right after their host's start tag; a frame element holds a placeholder line that the
 * caller replaces with that frame's own HTML. Must not reference anything outside its body.
 */
export function serializeFrameInPage(placeholder: string): string {
  const dropped = new Set(['style', 'link', 'script', 'br', 'noscript', 'template']);
  const unwrapped = new Set(['div', 'span', 'i', 'p']);
  const voids = new Set([
    'area',
    'base',
    'col',
    'embed',
    'hr',
    'img',
    'input',
    'link',
    'meta',
    'param',
    'source',
    'track',
    'wbr',
  ]);
  const lines: string[] = [];
  const escapeText = (s: string) =>
    s.replace(/\0/g, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // BrowserGym turns every newline of the document into a space before pretty-printing, so one
  // attribute never spans lines.
  const escapeAttr = (s: string) =>
    escapeText(s)
      .replace(/"/g, '&quot;')
      .replace(/\r\n?|\n/g, ' ');

  const attributes = (el: Element): [string, string][] => {
    const out: [string, string][] = [];
    const bid = el.getAttribute('bid');
    if (bid !== null) out.push(['bid', bid]);
    for (const attr of el.attributes) if (attr.name !== 'bid') out.push([attr.name, attr.value]);
    // Live state lives in properties, not attributes; the agent needs to see what it typed.
    const setLive = (name: string, value: string | null) => {
      const at = out.findIndex(([n]) => n === name);
      if (value === null) {
        if (at >= 0) out.splice(at, 1);
      } else if (at >= 0) out[at] = [name, value];
      else out.push([name, value]);
    };
    if (el instanceof HTMLInputElement) {
      if (el.type === 'checkbox' || el.type === 'radio') setLive('checked', el.checked ? '' : null);
      else if (el.type !== 'file') setLive('value', el.value);
    } else if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      setLive('value', el.value);
    } else if (el instanceof HTMLOptionElement) {
      setLive('selected', el.selected ? '' : null);
    }
    return out;
  };

  const visit = (node: Node, depth: number): void => {
    const pad = ' '.repeat(depth);
    if (node.nodeType === Node.TEXT_NODE) {
      const text = (node.nodeValue ?? '').replace(/[ \t\n\r\f]+/g, ' ').trim();
      if (text) lines.push(pad + escapeText(text));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node as Element;
    const tag = el.localName;
    if (dropped.has(tag)) return;
    const attrs = attributes(el);
    const unwrap =
      tag === 'html' || tag === 'body' || (unwrapped.has(tag) && attrs.length === 1 && attrs[0]?.[0] === 'bid');
    const inner = unwrap ? depth : depth + 1;
    const openLine = lines.length;
    if (!unwrap) {
      const open = `<${tag}${attrs.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join('')}`;
      if (voids.has(tag)) {
        lines.push(`${pad}${open}/>`);
        return;
      }
      lines.push(`${pad}${open}>`);
    }
    if ((tag === 'iframe' || tag === 'frame') && el.hasAttribute('bid'))
      lines.push(' '.repeat(inner) + placeholder + el.getAttribute('bid'));
    if (el.shadowRoot) for (let c = el.shadowRoot.firstChild; c; c = c.nextSibling) visit(c, inner);
    for (let c = el.firstChild; c; c = c.nextSibling) visit(c, inner);
    // A head with nothing left (srcdoc frames, pages without title) is only noise.
    if (tag === 'head' && lines.length === openLine + 1) lines.pop();
    else if (!unwrap) lines.push(`${pad}</${tag}>`);
  };
  if (document.documentElement) visit(document.documentElement, 0);
  return lines.join('\n');
}
