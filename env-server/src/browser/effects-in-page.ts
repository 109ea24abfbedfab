/**
 * The effects probe as it runs inside every document (an init script: it must reference nothing
 * outside its own body). It wraps the page's ways of deferring work, records each deferral with
 * its cause, and answers the smart settle's question: has everything the action set in motion
 * run, and has the DOM been quiet since?
 *
 * - A record's `root` is when the chain it belongs to began: work deferred from a page's event
 *   handler or script begins a chain now; work deferred from inside a recorded callback continues
 *   its parent's chain (depth + 1, up to `maxDepth`). So a background `setInterval` started at
 *   load is never the action's, but what the action's click schedules, and what that schedules, is.
 * - Timers, the first tick of an interval, animation frames, fetch and XMLHttpRequest until they
 *   end, a WebSocket until it opens and each `send` until the next message: these are waited for.
 *   CSS transitions and animations are read from `document.getAnimations()` when the settle asks.
 * - The originals are captured before any page script runs and the probe's state lives in this
 *   closure, so a page that wraps or replaces these functions after us still goes through us and
 *   cannot reach the records; the settle's own timers use the captured originals.
 */
export function trackEffectsInPage({
  key,
  maxDepth,
  maxRecords,
}: {
  key: string;
  maxDepth: number;
  maxRecords: number;
}) {
  interface Cause {
    root: number;
    depth: number;
  }
  interface Work extends Cause {
    due: number;
  }
  interface Query {
    since: number;
    touch(): void;
  }
  const w = window;
  const clock = Date.now;
  const perfNow = performance.now.bind(performance);
  const timeOrigin = performance.timeOrigin;
  const nativeSetTimeout = w.setTimeout.bind(w);
  const nativeClearTimeout = w.clearTimeout.bind(w);
  const nativeSetInterval = w.setInterval.bind(w);
  const nativeClearInterval = w.clearInterval.bind(w);
  const nativeRaf = w.requestAnimationFrame.bind(w);
  const nativeCaf = w.cancelAnimationFrame.bind(w);
  const NativeObserver = w.MutationObserver;
  const listen = EventTarget.prototype.addEventListener;
  const getAnimations = Document.prototype.getAnimations;
  const timers = new Map<number, Work>();
  const frames = new Map<number, Work>();
  const requests = new Set<Work>();
  const queries = new Set<Query>();
  const shadowRoots: WeakRef<ShadowRoot>[] = [];
  /** The recorded callback running now: what it defers continues its chain. */
  let current: Cause | null = null;

  const records = () => timers.size + frames.size + requests.size;
  /** The cause of work deferred now, or null when it is not to be waited for. */
  const causeNow = (): Cause | null => {
    if (!current) return { root: clock(), depth: 0 };
    return current.depth < maxDepth ? { root: current.root, depth: current.depth + 1 } : null;
  };
  /** A chain past its depth still runs with a cause, so what it defers is not taken for new work. */
  const exhausted = (): Cause => ({ root: current ? current.root : clock(), depth: Number.POSITIVE_INFINITY });
  const ended = (work: Work) => {
    for (const query of queries) if (work.root >= query.since) query.touch();
  };
  const within = <T>(cause: Cause, callback: () => T): T => {
    const outer = current;
    current = cause;
    try {
      return callback();
    } finally {
      current = outer;
    }
  };

  const deferTimer = (native: typeof setTimeout, repeat: boolean) =>
    function (this: unknown, handler: TimerHandler, delay?: number, ...args: unknown[]): number {
      if (typeof handler !== 'function') return native(handler, delay, ...args);
      const ms = Number(delay) > 0 && Number(delay) <= 2 ** 31 - 1 ? Number(delay) : 0;
      const cause = causeNow();
      const work = cause && records() < maxRecords ? { ...cause, due: clock() + ms } : null;
      const context = work ?? exhausted();
      let first = true;
      const id: number = (native as (h: TimerHandler, d?: number, ...a: unknown[]) => number)(
        (...callArgs: unknown[]) => {
          const mine = work && first;
          first = false;
          if (!repeat || mine) timers.delete(id);
          try {
            return within(context, () => (handler as (...a: unknown[]) => unknown)(...callArgs));
          } finally {
            if (mine) ended(work);
          }
        },
        delay,
        ...args,
      );
      if (work) timers.set(id, work);
      return id;
    };
  const forgetTimer = (native: (id?: number) => void) =>
    function (id?: number): void {
      if (id !== undefined) timers.delete(id);
      native(id);
    };
  w.setTimeout = deferTimer(nativeSetTimeout, false) as typeof setTimeout;
  w.setInterval = deferTimer(nativeSetInterval as typeof setTimeout, true) as typeof setInterval;
  w.clearTimeout = forgetTimer(nativeClearTimeout) as typeof clearTimeout;
  w.clearInterval = forgetTimer(nativeClearInterval) as typeof clearInterval;

  w.requestAnimationFrame = function (callback: FrameRequestCallback): number {
    if (typeof callback !== 'function') return nativeRaf(callback);
    const cause = causeNow();
    const work = cause && records() < maxRecords ? { ...cause, due: clock() } : null;
    const context = work ?? exhausted();
    const id = nativeRaf((time) => {
      frames.delete(id);
      try {
        within(context, () => callback(time));
      } finally {
        if (work) ended(work);
      }
    });
    if (work) frames.set(id, work);
    return id;
  };
  w.cancelAnimationFrame = function (id: number): void {
    frames.delete(id);
    nativeCaf(id);
  };

  /** Records a request from now until `settled` is called (at most once). */
  const request = (): (() => void) => {
    const cause = causeNow();
    if (!cause || records() >= maxRecords) return () => undefined;
    const work = { ...cause, due: clock() };
    requests.add(work);
    return () => {
      if (requests.delete(work)) ended(work);
    };
  };
  const nativeFetch = w.fetch;
  if (typeof nativeFetch === 'function')
    w.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
      const settled = request();
      try {
        const answer = nativeFetch.apply(this, args);
        answer.then(settled, settled);
        return answer;
      } catch (error) {
        settled();
        throw error;
      }
    } as typeof fetch;
  const nativeSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const settled = request();
    listen.call(this, 'loadend', settled, { once: true });
    try {
      nativeSend.call(this, body);
    } catch (error) {
      settled();
      throw error;
    }
  };
  const NativeSocket = w.WebSocket;
  if (typeof NativeSocket === 'function') {
    const nativeSocketSend = NativeSocket.prototype.send;
    const untilEvent = (socket: WebSocket, events: string[]) => {
      const settled = request();
      for (const type of events) listen.call(socket, type, settled, { once: true });
    };
    // A Proxy keeps the constructor's identity for the page (prototype, statics, instanceof).
    w.WebSocket = new Proxy(NativeSocket, {
      construct(target, args, newTarget) {
        const socket = Reflect.construct(target, args, newTarget) as WebSocket;
        untilEvent(socket, ['open', 'error', 'close']);
        return socket;
      },
    });
    NativeSocket.prototype.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      nativeSocketSend.call(this, data);
      untilEvent(this, ['message', 'close']);
    };
  }
  const nativeAttachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    const root = nativeAttachShadow.call(this, init);
    shadowRoots.push(new WeakRef(root));
    return root;
  };

  /**
   * When the page last did something whose effects the browser runs in a later task rather than
   * inside the action: a form submitted, a navigation of any kind begun (a fragment's hashchange,
   * a traversal, a popup), a popover or dialog toggled, a `<summary>` or invoker clicked (their
   * toggle events are queued). The settle's flush waits task turns only after one of these.
   */
  let followUpAt = 0;
  const followUp = () => {
    followUpAt = clock();
  };
  const queuesOnClick = 'summary, a[href], area[href], [popovertarget], [commandfor]';
  listen.call(w, 'submit', followUp, { capture: true });
  listen.call(
    w,
    'click',
    (event: Event) => {
      for (const node of event.composedPath())
        if (node instanceof Element && node.matches(queuesOnClick)) return followUp();
    },
    { capture: true },
  );
  const history = (w as { navigation?: EventTarget }).navigation;
  if (history) listen.call(history, 'navigate', followUp);
  const marking = <T extends object>(target: T, names: string[]) => {
    for (const name of names) {
      const native = (target as Record<string, unknown>)[name];
      if (typeof native !== 'function') continue;
      (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        followUp();
        return (native as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  };
  marking(w, ['open']);
  marking(History.prototype, ['back', 'forward', 'go']);
  marking(HTMLElement.prototype, ['showPopover', 'hidePopover', 'togglePopover']);
  if (typeof HTMLDialogElement === 'function') marking(HTMLDialogElement.prototype, ['close', 'requestClose']);
  /**
   * Scroll and resize listeners and observers run at the next rendering frame, which an input's
   * task turns used to wait behind: a page that has any keeps the flush's turns every step.
   */
  let framesObserved = false;
  const frameEvents = new Set(['scroll', 'scrollend', 'resize']);
  const nativeListen = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
    if (frameEvents.has(type)) framesObserved = true;
    return (nativeListen as (...a: unknown[]) => void).call(this, type, ...rest);
  };
  for (const name of ['IntersectionObserver', 'ResizeObserver'] as const) {
    const Native = w[name] as unknown as (new (...a: unknown[]) => object) | undefined;
    if (typeof Native !== 'function') continue;
    (w as unknown as Record<string, unknown>)[name] = new Proxy(Native, {
      construct(target, args, newTarget) {
        framesObserved = true;
        return Reflect.construct(target, args, newTarget) as object;
      },
    });
  }
  const observesFrames = () =>
    framesObserved ||
    w.onscroll !== null ||
    w.onresize !== null ||
    document.onscroll !== null ||
    document.querySelector('[onscroll]') !== null;

  /** CSS transitions and animations begun since `since` that end before `limit` (both epoch ms). */
  const animating = (since: number, limit: number): boolean => {
    const now = perfNow();
    for (const animation of getAnimations.call(document)) {
      if (animation.playState !== 'running' || !animation.effect) continue;
      if (animation.startTime !== null && Number(animation.startTime) + timeOrigin < since) continue;
      const timing = animation.effect.getComputedTiming();
      const left = Number(timing.endTime) - Number(timing.localTime ?? 0);
      if (Number.isFinite(left) && now + timeOrigin + left <= limit) return true;
    }
    return false;
  };
  const timerDue = (since: number, limit: number): boolean => {
    for (const work of timers.values()) if (work.root >= since && work.due <= limit) return true;
    return false;
  };
  const pendingSince = (since: number, limit: number): boolean => {
    if (timerDue(since, limit)) return true;
    for (const work of frames.values()) if (work.root >= since) return true;
    for (const work of requests) if (work.root >= since) return true;
    return animating(since, limit);
  };

  /**
   * Resolves once nothing begun since `since` is pending that is due within `horizonMs`, and —
   * when anything was — the DOM (shadow trees included) has not changed for `quietMs`; at most
   * `horizonMs` after it was asked.
   */
  const settle = (since: number, horizonMs: number, quietMs: number) => {
    // The common case, nothing pending, answers without setting up an observer.
    if (!pendingSince(since, clock() + horizonMs)) return { outcome: 'none' as const, waitedMs: 0 };
    return new Promise<{ outcome: 'none' | 'quiet' | 'bound'; waitedMs: number }>((resolve) => {
      const start = clock();
      const limit = start + horizonMs;
      let last = start;
      let waited = false;
      let overtime = false;
      let wake: number | undefined;
      const observer = new NativeObserver(() => (last = clock()));
      const options = { subtree: true, childList: true, attributes: true, characterData: true };
      observer.observe(document, options);
      for (const ref of shadowRoots) {
        const root = ref.deref();
        if (root) observer.observe(root, options);
      }
      const query: Query = {
        since,
        touch: () => {
          last = clock();
          if (wake !== undefined) nativeClearTimeout(wake);
          wake = nativeSetTimeout(check, 0);
        },
      };
      queries.add(query);
      const finish = (outcome: 'none' | 'quiet' | 'bound') => {
        observer.disconnect();
        queries.delete(query);
        if (wake !== undefined) nativeClearTimeout(wake);
        resolve({ outcome, waitedMs: clock() - start });
      };
      function check(): void {
        wake = undefined;
        const now = clock();
        if (now >= limit) {
          // A starved page runs this check late, maybe before timers due before the limit have had
          // their turn; due earlier, they run before a zero-delay check, so one more turn is theirs.
          if (!overtime && timerDue(since, limit)) {
            overtime = true;
            wake = nativeSetTimeout(check, 0);
            return;
          }
          return finish(overtime && !pendingSince(since, limit) ? 'quiet' : 'bound');
        }
        if (pendingSince(since, limit)) {
          waited = true;
          wake = nativeSetTimeout(check, Math.min(quietMs, limit - now));
          return;
        }
        if (!waited) return finish('none');
        const quiet = now - last;
        if (quiet >= quietMs) return finish('quiet');
        wake = nativeSetTimeout(check, Math.min(quietMs - quiet, limit - now));
      }
      check();
    });
  };

  /** Whether what happened since `since` may still have work for a later task within `horizonMs`. */
  const deferredSince = (since: number, horizonMs: number) =>
    followUpAt >= since || observesFrames() || pendingSince(since, clock() + horizonMs);

  Object.defineProperty(w, Symbol.for(key), {
    value: Object.freeze({
      settle,
      deferredSince,
      setTimeout: nativeSetTimeout,
      clearTimeout: nativeClearTimeout,
      requestAnimationFrame: nativeRaf,
    }),
  });
}
