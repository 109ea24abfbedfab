import type { ElementProperties } from '@gauntlet/proto';

/** [x0, y0, x1, y1] in top-level page coordinates. */
export type Rect = [number, number, number, number];

export interface MarkFrameArgs {
  /**
   * Bid prefix of this document ('' for the top document), or null to read it from
   * `window.frameElement` and take offset and clip from the matching `parentSlots` entry: a
   * same-origin child frame finds its place itself, saving two round trips per frame.
   */
  prefix: string | null;
  /** Number of frame segments in the prefix: decides the letter case of this document's frame bids. */
  depth: number;
  /** Where this document's viewport origin lies in top-level page coordinates. */
  offset: [number, number];
  /** The part of the top-level viewport this document can paint into (null for the top document). */
  clip: Rect | null;
  parentSlots: FrameSlot[];
  /** Collect extra_element_properties (skipped when nobody asked for them). */
  properties: boolean;
}

/** A frame element found while marking, with what its document needs to place its own boxes. */
export interface FrameSlot {
  bid: string;
  offset: [number, number];
  clip: Rect;
}

export interface MarkFrameResult {
  /** The prefix used; null when it could not be found (cross-origin frame asked with prefix null). */
  prefix: string | null;
  properties: Record<string, ElementProperties>;
  /** Bid of this document's deep active element (through open shadow roots), if it has one. */
  focused: string | null;
  frames: FrameSlot[];
  /** document.title, read here to save the page a round trip for it. */
  title: string;
}

/**
 * Runs inside one frame (passed to `frame.evaluate` as a real function, so it must not reference
 * anything outside its own body). One pass: walk the DOM in document order with open shadow roots
 * right after their host, give bids, then measure every marked element. Returns JSON text because
 * Playwright's structured serializer is several times slower on hundreds of small objects.
 *
 * Not marked (nothing to act on, never rendered): head and its contents, script, style, noscript,
 * template, link, meta, and SVG title.
 */
export function markFrameInPage(args: MarkFrameArgs): string {
  const own = args.prefix === null ? window.frameElement?.getAttribute('bid') : undefined;
  const place =
    args.prefix !== null
      ? { bid: args.prefix, offset: args.offset, clip: args.clip }
      : args.parentSlots.find((s) => s.bid === own);
  if (!place) return JSON.stringify({ prefix: null, properties: {}, focused: null, frames: [], title: '' });
  const prefix = place.bid;
  const [ox, oy] = place.offset;
  const elements: Element[] = [];
  const parents: number[] = []; // index of each element's nearest marked ancestor (a host for shadow content)
  const skip = new Set(['head', 'script', 'style', 'noscript', 'template', 'link', 'meta', 'title']);
  const isFrame = (el: Element) => el.localName === 'iframe' || el.localName === 'frame';
  if (document.documentElement) {
    elements.push(document.documentElement);
    parents.push(-1);
    collect(document.documentElement, 0);
  }
  const bids = assignBids();

  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  const result: MarkFrameResult = {
    prefix,
    properties: {},
    focused: active?.getAttribute('bid') ?? null,
    frames: [],
    title: document.title,
  };
  // In quirks mode the body, not the root, reports the viewport size.
  const view =
    (document.compatMode === 'CSS1Compat' ? document.documentElement : document.body) ?? document.documentElement;
  const pixels = window.devicePixelRatio || 1;
  const viewport: Rect = [ox, oy, ox + (view.clientWidth || innerWidth), oy + (view.clientHeight || innerHeight)];
  const frameClip = place.clip ? intersect(viewport, place.clip) : viewport;
  if (args.properties) measure();
  else
    elements.forEach(
      (el, i) => isFrame(el) && result.frames.push({ bid: bids[i] as string, offset: [ox, oy], clip: frameClip }),
    );
  return JSON.stringify(result);

  function collect(root: Element | ShadowRoot, parent: number): void {
    for (let el = root.firstElementChild; el; el = el.nextElementSibling) {
      if (skip.has(el.localName)) continue;
      const index = elements.push(el) - 1;
      parents.push(parent);
      if (el.shadowRoot) collect(el.shadowRoot, index);
      collect(el, index);
    }
  }

  /**
   * An element keeps the bid we gave it. A bid we did not write (a clone's copy, the page's own)
   * is kept by the first element in document order that can claim it, if it fits the grammar;
   * every other element gets the next number (or letters, for frame elements).
   */
  function assignBids(): string[] {
    type State = { next: number; nextFrame: number; owned: WeakMap<Element, string> };
    const key = Symbol.for('gauntlet.bids');
    const slot = window as unknown as Record<symbol, State | undefined>;
    const state: State = slot[key] ?? { next: 0, nextFrame: 0, owned: new WeakMap() };
    // Non-enumerable so page code iterating window does not trip over it.
    if (!slot[key]) Object.defineProperty(window, key, { value: state, configurable: true });
    const lowerCase = args.depth % 2 === 0;
    const localIndex = (el: Element, bid: string | null): number => {
      if (bid === null || !bid.startsWith(prefix)) return -1;
      const local = bid.slice(prefix.length);
      if (!isFrame(el)) return /^(0|[1-9]\d*)$/.test(local) ? Number(local) : -1;
      if (!(lowerCase ? /^[a-z]+$/ : /^[A-Z]+$/).test(local)) return -1;
      let n = 0;
      for (const ch of local.toLowerCase()) n = n * 26 + ch.charCodeAt(0) - 96;
      return n - 1;
    };
    const frameSegment = (index: number): string => {
      let out = '';
      for (let n = index + 1; n > 0; n = Math.floor(n / 26)) out = String.fromCharCode(97 + (--n % 26)) + out;
      return lowerCase ? out : out.toUpperCase();
    };
    const taken = new Map<string, Element>();
    for (const el of elements) {
      const bid = el.getAttribute('bid');
      if (bid !== null && state.owned.get(el) === bid && localIndex(el, bid) >= 0) taken.set(bid, el);
    }
    return elements.map((el) => {
      const current = el.getAttribute('bid');
      if (current !== null && taken.get(current) === el) return current;
      const index = current !== null && !taken.has(current) ? localIndex(el, current) : -1;
      let bid: string;
      if (index < 0) bid = isFrame(el) ? prefix + frameSegment(state.nextFrame++) : prefix + String(state.next++);
      else {
        bid = current as string;
        if (isFrame(el)) state.nextFrame = Math.max(state.nextFrame, index + 1);
        else state.next = Math.max(state.next, index + 1);
      }
      taken.set(bid, el);
      state.owned.set(el, bid);
      if (current !== bid) el.setAttribute('bid', bid);
      return bid;
    });
  }

  /** extra_element_properties for every marked element, and where each frame element's content sits. */
  function measure(): void {
    const clips: Rect[] = []; // what each element's descendants can paint into
    const inMarkedControl: boolean[] = [];
    elements.forEach((el, i) => {
      const parent = parents[i] as number;
      const style = getComputedStyle(el);
      const clip = style.position === 'fixed' || parent < 0 ? frameClip : (clips[parent] as Rect);
      clips[i] = clip;
      inMarkedControl[i] = parent >= 0 && (inMarkedControl[parent] as boolean);
      const bid = bids[i] as string;
      const clickable = looksClickable(el, style);
      if (el.getClientRects().length === 0) {
        result.properties[bid] = { visibility: 0, bbox: null, clickable, set_of_marks: false };
        // A frame that is not rendered still gets its content marked; nothing in it is visible.
        if (isFrame(el)) result.frames.push({ bid, offset: [ox, oy], clip: [0, 0, -1, -1] });
        return;
      }
      const r = el.getBoundingClientRect();
      const box: Rect = [r.left + ox, r.top + oy, r.right + ox, r.bottom + oy];
      const area = r.width * r.height;
      let visibility = 0;
      if (style.visibility === 'visible') {
        const seen = intersect(box, clip);
        const seenArea = Math.max(0, seen[2] - seen[0]) * Math.max(0, seen[3] - seen[1]);
        // Zero-area boxes count as fully visible when they touch the clip, as IntersectionObserver does.
        visibility =
          area > 0 ? Math.round((seenArea / area) * 100) / 100 : seen[2] >= seen[0] && seen[3] >= seen[1] ? 1 : 0;
      }
      let hasText = false;
      for (let n = el.firstChild; n && !hasText; n = n.nextSibling)
        hasText = n.nodeType === 3 && (n.nodeValue ?? '').trim() !== '';
      // Set-of-marks labels the control, not the pieces inside it (BrowserGym does the same).
      const som = visibility > 0 && (clickable || hasText) && area >= 20 && !inMarkedControl[i];
      const role = el.getAttribute('role');
      if (som && (/^(a|button|input|select|textarea)$/.test(el.localName) || role === 'button' || role === 'link'))
        inMarkedControl[i] = true;
      // Boxes in screenshot pixels, the unit coordinate actions take (BrowserGym scales them too).
      const bbox: Rect = [box[0] * pixels, box[1] * pixels, r.width * pixels, r.height * pixels];
      result.properties[bid] = { visibility, bbox, clickable, set_of_marks: som };
      if (isFrame(el)) {
        const pad = [style.paddingLeft, style.paddingTop, style.paddingRight, style.paddingBottom].map(
          parseFloat,
        ) as Rect;
        const left = box[0] + el.clientLeft + pad[0];
        const top = box[1] + el.clientTop + pad[1];
        const content: Rect = [
          left,
          top,
          left + el.clientWidth - pad[0] - pad[2],
          top + el.clientHeight - pad[1] - pad[3],
        ];
        result.frames.push({ bid, offset: [left, top], clip: intersect(clip, content) });
      }
      // html and body overflow belongs to the viewport, which `frameClip` already covers.
      const clipsX = style.overflowX !== 'visible';
      const clipsY = style.overflowY !== 'visible';
      if ((clipsX || clipsY) && el !== document.documentElement && el !== document.body) {
        const x0 = box[0] + el.clientLeft;
        const y0 = box[1] + el.clientTop;
        clips[i] = [
          clipsX ? Math.max(clip[0], x0) : clip[0],
          clipsY ? Math.max(clip[1], y0) : clip[1],
          clipsX ? Math.min(clip[2], x0 + el.clientWidth) : clip[2],
          clipsY ? Math.min(clip[3], y0 + el.clientHeight) : clip[3],
        ];
      }
    });
  }

  /** Heuristics: native controls, ARIA widget roles, inline handlers, focusability, pointer cursor. */
  function looksClickable(el: Element, style: CSSStyleDeclaration): boolean {
    const tag = el.localName;
    const tabindex = el.getAttribute('tabindex');
    return (
      /^(button|select|textarea|summary|option)$/.test(tag) ||
      (tag === 'input' && (el as HTMLInputElement).type !== 'hidden') ||
      (tag === 'a' && el.hasAttribute('href')) ||
      (tag === 'label' && (el as HTMLLabelElement).control !== null) ||
      /^(button|link|checkbox|radio|switch|tab|menuitem|menuitemcheckbox|menuitemradio|option|treeitem|combobox|textbox|searchbox|slider|spinbutton)$/.test(
        el.getAttribute('role') ?? '',
      ) ||
      (el as HTMLElement).onclick != null ||
      (tabindex !== null && Number(tabindex) >= 0) ||
      (el as HTMLElement).isContentEditable === true ||
      style.cursor === 'pointer'
    );
  }

  function intersect(a: Rect, b: Rect): Rect {
    return [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  }
}

/** Runs inside one frame: forgets every bid and the counters, so the next marking starts from 0 again. */
export function clearBidsInPage(): void {
  delete (window as unknown as Record<symbol, unknown>)[Symbol.for('gauntlet.bids')];
  const clear = (root: Document | ShadowRoot): void => {
    for (const el of root.querySelectorAll('*')) {
      el.removeAttribute('bid');
      if (el.shadowRoot) clear(el.shadowRoot);
    }
  };
  clear(document);
}
