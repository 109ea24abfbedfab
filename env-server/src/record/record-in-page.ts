/** What the page reports for one trusted input of the person; record-actions.ts turns it into an action. */
export interface PageInput {
  kind: 'click' | 'dblclick' | 'fill' | 'select' | 'press' | 'scroll' | 'drag';
  /** The env's bid of the element acted on (its nearest marked ancestor when it has none). */
  bid: string | null;
  value?: string;
  values?: string[];
  key?: string;
  dx?: number;
  dy?: number;
  to?: string | null;
}

export const RECORD_BINDING = '__gauntletRecord';
/**
 * Set in every frame while the env plays a stopped input: the one event that input makes (a click
 * on that bid, a press of that key) is the env's own — let through, not recorded again. Anything
 * else meanwhile is the person's and recorded as usual.
 */
export const PLAYING_FLAG = '__gauntletPlaying';

/** The env's own event expected while it plays a stopped input. */
export interface PlayingInput {
  kind: 'click' | 'press';
  bid: string | null;
  key?: string | undefined;
}

/** Inputs the page does not act on: the env plays them (see Recording), so the page before them can be observed. */
export const INTERCEPTED: ReadonlySet<PageInput['kind']> = new Set(['click', 'press']);

/**
 * Runs in every frame of a recording session (an init script, and once in the frames already
 * loaded at reset): listens in the capture phase, before the page's own handlers, to the
 * person's trusted input only (a page's synthetic events are not the person's; the env's own
 * input is recognised by the `playing` expectation). A click or a key press (Enter, Tab, Escape, arrows)
 * is stopped here and reported: the env observes the page as it is, then plays the action
 * itself, so the observation before it and the reward after it are exact. Typing, selects,
 * scrolls and drags happen as the person does them and are reported once done. Must not
 * reference anything outside its own body (it is serialised into the page).
 */
export function recordInPage({ binding, playing }: { binding: string; playing: string }): void {
  const w = window as unknown as Record<string, unknown>;
  if (w.__gauntletRecorder) return;
  w.__gauntletRecorder = true;
  const send = (input: Record<string, unknown>) => {
    const report = w[binding] as ((input: unknown) => Promise<void>) | undefined;
    void report?.(input)?.catch?.(() => undefined);
  };
  const bidOf = (node: EventTarget | null): string | null => {
    let element = node instanceof Element ? node : node instanceof Node ? node.parentElement : null;
    // Inside an open shadow root the event target is retargeted to the host; composedPath has the real one.
    while (element && !element.hasAttribute('bid')) element = element.parentElement;
    return element ? element.getAttribute('bid') : null;
  };
  const targetOf = (event: Event) => (event.composedPath()[0] ?? event.target) as EventTarget | null;
  const isTextField = (el: unknown): el is HTMLInputElement | HTMLTextAreaElement =>
    (el instanceof HTMLInputElement &&
      !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color'].includes(el.type)) ||
    el instanceof HTMLTextAreaElement;
  const filled = new WeakMap<Element, string>();
  /** One fill per field edit: sent on change, blur, or a key that leaves or submits the field. */
  const flushFill = (el: unknown) => {
    if (!isTextField(el) || filled.get(el) === el.value) return;
    if (!filled.has(el) && el.value === el.defaultValue) return;
    filled.set(el, el.value);
    send({ kind: 'fill', bid: bidOf(el), value: el.value });
  };
  const KEYS = new Set(['Enter', 'Tab', 'Escape', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);
  let press: { x: number; y: number; bid: string | null; field: boolean } | undefined;
  let dragged = false;
  let lastLabel: { control: HTMLElement | null; at: number } | undefined;
  let wheel: { dx: number; dy: number; timer: number } | undefined;
  const on = (type: string, handler: (event: Event) => void) =>
    window.addEventListener(
      type,
      (event) => {
        if (event.isTrusted) handler(event);
      },
      true,
    );
  /** Whether this is the env's own event of the input it plays now (consumed: it is expected once). */
  const isEnvs = (kind: string, bid: string | null, key?: string) => {
    const expected = w[playing] as { kind: string; bid: string | null; key?: string } | null | undefined;
    const match = expected?.kind === kind && (kind === 'press' ? expected.key === key : expected.bid === bid);
    if (match) w[playing] = null;
    return match;
  };
  /** The env plays this input itself (after observing the page): the page must not act on it now. */
  const intercept = (event: Event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  on('mousedown', (event) => {
    const e = event as MouseEvent;
    const target = targetOf(e);
    press = { x: e.clientX, y: e.clientY, bid: bidOf(target), field: isTextField(target) };
    dragged = false;
  });
  on('mouseup', (event) => {
    const e = event as MouseEvent;
    const start = press;
    press = undefined;
    if (!start || start.field || Math.hypot(e.clientX - start.x, e.clientY - start.y) < 8) return;
    dragged = true;
    send({ kind: 'drag', bid: start.bid, to: bidOf(targetOf(e)) });
  });
  on('dragend', (event) => {
    const e = event as DragEvent;
    const start = press;
    press = undefined;
    if (!start) return;
    const over = document.elementFromPoint(e.clientX, e.clientY);
    send({ kind: 'drag', bid: start.bid, to: bidOf(over) });
  });
  on('click', (event) => {
    const e = event as MouseEvent;
    if (dragged) {
      dragged = false;
      return;
    }
    const target = targetOf(e);
    // A select's options are chosen through `change`; the second click of a double click is the
    // dblclick. Clicks the browser makes itself (detail 0: a label passing its click to its
    // control, Enter submitting a form through its button) follow from an input already recorded.
    if (e.detail !== 1 || target instanceof HTMLSelectElement || target instanceof HTMLOptionElement) return;
    const label = target instanceof Element ? target.closest('label') : null;
    if (target instanceof HTMLInputElement && lastLabel?.control === target && e.timeStamp - lastLabel.at < 100) return;
    lastLabel = label ? { control: label.control, at: e.timeStamp } : undefined;
    const bid = bidOf(target);
    if (bid === null || isEnvs('click', bid)) return;
    intercept(e);
    send({ kind: 'click', bid });
  });
  on('dblclick', (event) => send({ kind: 'dblclick', bid: bidOf(targetOf(event)) }));
  on('change', (event) => {
    const target = targetOf(event);
    if (target instanceof HTMLSelectElement) {
      const values = [...target.selectedOptions].map((o) => o.label || o.text);
      send({ kind: 'select', bid: bidOf(target), values });
    } else flushFill(target);
  });
  on('focusout', (event) => flushFill(targetOf(event)));
  on('keydown', (event) => {
    const e = event as KeyboardEvent;
    // Alt/Meta with an arrow is the browser's back/forward: left to the browser (recorded from its history).
    if (!KEYS.has(e.key) || e.altKey || e.metaKey) return;
    const target = targetOf(e);
    if (isEnvs('press', null, e.key)) return;
    flushFill(target);
    intercept(e);
    send({ kind: 'press', bid: bidOf(target), key: e.key });
  });
  on('wheel', (event) => {
    const e = event as WheelEvent;
    // One scroll per burst of wheel turns: summed, sent once the wheel rests.
    if (wheel) clearTimeout(wheel.timer);
    const sum = { dx: (wheel?.dx ?? 0) + e.deltaX, dy: (wheel?.dy ?? 0) + e.deltaY };
    wheel = {
      ...sum,
      timer: window.setTimeout(() => {
        wheel = undefined;
        send({ kind: 'scroll', bid: null, dx: sum.dx, dy: sum.dy });
      }, 250),
    };
  });
}
