/**
 * What the page says about the element an action failed on, gathered in one evaluate. Plain
 * data, so the wording of the diagnosis (diagnose-explain.ts) is testable without a browser.
 */
export interface ElementFacts {
  /** How many elements carry the bid (0: missing; >1: duplicate bids). */
  count: number;
  tag: string;
  inputType: string | undefined;
  contentEditable: boolean;
  /** Why it has no visible box: 'display:none', 'visibility:hidden', 'zero size', … */
  hidden: string | undefined;
  /** Where the box is when it cannot be scrolled into view. */
  offscreenAt: { x: number; y: number } | undefined;
  /** Why it is disabled: 'disabled', 'inside a disabled fieldset', 'aria-disabled', … */
  disabled: string | undefined;
  readOnly: boolean;
  noPointerEvents: boolean;
  /** The element a pointer at its centre would hit instead, described as tag#id.class (bid "n"). */
  coveredBy: string | undefined;
  /** The cover is a `<label>` of the element: clicking it still reaches the element. */
  coverIsOwnLabel: boolean;
  /**
   * The cover lies inside a link, button or other control that contains the element (an icon
   * with pointer-events:none inside its button): a user's click there does what they meant.
   */
  coverInControlAround: boolean;
  /** Only for `<select>`. */
  options: { value: string; label: string }[] | undefined;
}

export interface CollectOptions {
  /** Scroll the element into view before the hit test, as a pointer action would. */
  scroll: boolean;
  /** Elements a click is meant for (passed in: the in-page function cannot see module constants). */
  controlSelector: string;
}

/**
 * Runs in the page (serialised by Playwright): it must not reference anything outside itself.
 * Measures the first match only; strict mode makes duplicates fail before this matters.
 */
export function collectFacts(elements: Element[], options: CollectOptions): ElementFacts {
  const el = elements[0];
  const facts: ElementFacts = {
    count: elements.length,
    tag: '',
    inputType: undefined,
    contentEditable: false,
    hidden: undefined,
    offscreenAt: undefined,
    disabled: undefined,
    readOnly: false,
    noPointerEvents: false,
    coveredBy: undefined,
    coverIsOwnLabel: false,
    coverInControlAround: false,
    options: undefined,
  };
  if (!el || !el.isConnected) return { ...facts, count: 0 };

  // Walks up through shadow hosts, never out of the element's own document.
  const parentOf = (node: Node): Element | null => {
    const parent = node.parentNode;
    if (parent instanceof ShadowRoot) return parent.host;
    return parent instanceof Element ? parent : null;
  };
  const describe = (node: Element): string => {
    const id = node.id ? `#${node.id}` : '';
    const classes = (node.getAttribute('class') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 3)
      .map((c) => `.${c}`)
      .join('');
    const bid = node.getAttribute('bid');
    return `${node.tagName.toLowerCase()}${id}${classes}${bid === null ? '' : ` (bid "${bid}")`}`;
  };
  const contains = (outer: Element, inner: Element | null): boolean => {
    for (let n: Element | null = inner; n; n = parentOf(n)) if (n === outer) return true;
    return false;
  };

  facts.tag = el.tagName.toLowerCase();
  if (el instanceof HTMLInputElement) facts.inputType = el.type;
  facts.contentEditable = el instanceof HTMLElement && el.isContentEditable;
  if (el instanceof HTMLSelectElement)
    facts.options = Array.from(el.options, (o) => ({ value: o.value, label: o.label }));
  facts.readOnly =
    ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly) ||
    el.getAttribute('aria-readonly') === 'true';

  if (el.matches(':disabled'))
    facts.disabled = (el as HTMLButtonElement).disabled ? 'disabled' : 'inside a disabled fieldset';
  for (let n: Element | null = el; n && !facts.disabled; n = parentOf(n)) {
    if (n.getAttribute('aria-disabled') === 'true')
      facts.disabled = n === el ? 'aria-disabled' : `aria-disabled on ancestor ${describe(n)}`;
  }

  const style = getComputedStyle(el);
  facts.noPointerEvents = style.pointerEvents === 'none';
  if (!el.checkVisibility()) {
    let cause: Element | null = el;
    while (cause && getComputedStyle(cause).display !== 'none') cause = parentOf(cause);
    if (cause) facts.hidden = cause === el ? 'display:none' : `display:none on ancestor ${describe(cause)}`;
    else
      facts.hidden =
        style.display === 'contents' ? 'display:contents, no box of its own' : 'not rendered (content-visibility)';
    return facts;
  }
  if (style.visibility !== 'visible') {
    facts.hidden = `visibility:${style.visibility}`;
    return facts;
  }
  let rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) {
    facts.hidden = 'zero size';
    return facts;
  }

  const view = { width: window.innerWidth, height: window.innerHeight };
  const outside = (r: DOMRect) => r.right <= 0 || r.bottom <= 0 || r.left >= view.width || r.top >= view.height;
  if (outside(rect) && options.scroll) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    rect = el.getBoundingClientRect();
  }
  if (outside(rect)) {
    facts.offscreenAt = { x: Math.round(rect.left + window.scrollX), y: Math.round(rect.top + window.scrollY) };
    return facts;
  }

  // Hit-test the centre of the visible part, descending into open shadow roots like the browser does.
  const x = (Math.max(rect.left, 0) + Math.min(rect.right, view.width)) / 2;
  const y = (Math.max(rect.top, 0) + Math.min(rect.bottom, view.height)) / 2;
  let hit = el.ownerDocument.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (hit && !contains(el, hit)) {
    facts.coveredBy = describe(hit);
    const labels = 'labels' in el ? Array.from((el as HTMLInputElement).labels ?? []) : [];
    facts.coverIsOwnLabel = labels.some((label) => contains(label, hit));
    const control = parentOf(el)?.closest(options.controlSelector);
    facts.coverInControlAround = !!control && contains(control, hit);
  }
  return facts;
}
