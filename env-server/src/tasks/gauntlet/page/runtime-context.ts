import type { PageStep, PuzzleContext } from './contract.js';

/** The hooks the app gives one step's puzzle context. */
export interface StepHooks {
  /** Where the default "Revealed code" region goes. */
  revealSlot: HTMLElement;
  instructions: HTMLElement;
  status: HTMLElement;
  media: { videoUrl: string };
  /** The code a reveal made available (the WebSocket step learns its code only then). */
  onReveal(code: string): void;
  onFail(): void;
}

export interface StepHandle {
  ctx: PuzzleContext<unknown>;
  /** Ends the step: timers, listeners and the puzzle's own cleanups. */
  dispose(): void;
}

/**
 * Builds the API one step's puzzle code runs against. Shipped to the page as source text (see
 * build-app.ts), so it uses only its arguments and browser globals.
 */
export function makePuzzleContext(step: PageStep, area: HTMLElement, hooks: StepHooks): StepHandle {
  let alive = true;
  const cleanups: (() => void)[] = [];
  const el = (
    tag: string,
    attrs: Record<string, string | number | boolean> = {},
    ...children: (Node | string)[]
  ): HTMLElement => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === false) continue;
      node.setAttribute(key, value === true ? '' : String(value));
    }
    node.append(...children);
    return node;
  };
  let revealed: HTMLElement | null = null;
  // Lock words: plain lower-case words (never code-like), chosen by the step and lock count so a seed replays alike.
  const LOCK_WORDS = ['lantern', 'meadow', 'harbor', 'thistle', 'pebble', 'juniper', 'marble', 'sparrow', 'willow'];
  let lockSection: HTMLElement | null = null;
  let locks = 0;
  for (const type of ['click', 'mousedown', 'mouseup', 'pointerdown', 'input', 'change', 'keydown', 'dblclick']) {
    area.addEventListener(
      type,
      (event) => {
        if (lockSection && !lockSection.contains(event.target as Node)) {
          event.stopImmediatePropagation();
          event.preventDefault();
        }
      },
      true,
    );
  }
  const ctx: PuzzleContext<unknown> = {
    params: step.params,
    area,
    socket: step.socket ?? null,
    media: hooks.media,
    el,
    instruct: (...paragraphs) => hooks.instructions.replaceChildren(...paragraphs.map((text) => el('p', {}, text))),
    reveal(code, where) {
      if (!alive) return;
      const shown = code ?? step.code;
      revealed?.remove();
      // A fresh region each time: the code is never in the DOM before this call.
      revealed = el(
        'section',
        { 'aria-label': 'Revealed code', class: 'revealed' },
        el('span', {}, 'Code: '),
        el('output', {}, shown),
      );
      (where ?? hooks.revealSlot).append(revealed);
      hooks.onReveal(shown);
    },
    code: () => step.code,
    say: (text) => {
      if (alive) hooks.status.textContent = text;
    },
    fail: (text) => {
      if (!alive) return;
      hooks.status.textContent = text;
      hooks.onFail();
    },
    lock(text, onUnlock) {
      if (!alive) return;
      hooks.status.textContent = text;
      hooks.onFail();
      if (lockSection) return;
      locks += 1;
      const word = LOCK_WORDS[(step.title.length * 7 + locks * 5) % LOCK_WORDS.length]!;
      const box = el('input', { type: 'text', 'aria-label': 'Unlock word', autocomplete: 'off' }) as HTMLInputElement;
      const unlock = el('button', { type: 'button' }, 'Unlock');
      const section = el(
        'section',
        { 'aria-label': 'Locked', class: 'lock' },
        el('p', {}, `Locked: ${text} To go on, type "${word}" in the "Unlock word" box and press "Unlock".`),
        box,
        ' ',
        unlock,
      );
      unlock.addEventListener('click', () => {
        if (box.value.trim().toLowerCase() !== word) {
          hooks.status.textContent = 'That is not the unlock word.';
          hooks.onFail();
          return;
        }
        section.remove();
        lockSection = null;
        hooks.status.textContent = 'Unlocked: the puzzle starts over.';
        onUnlock?.();
      });
      lockSection = section;
      area.prepend(section);
    },
    locked: () => lockSection !== null,
    later: (ms, fn) => {
      const id = setTimeout(() => alive && fn(), ms);
      cleanups.push(() => clearTimeout(id));
    },
    every: (ms, fn) => {
      const id = setInterval(() => alive && fn(), ms);
      cleanups.push(() => clearInterval(id));
    },
    listen: (target, type, fn, options) => {
      target.addEventListener(type, fn, options);
      cleanups.push(() => target.removeEventListener(type, fn, options));
    },
    onCleanup: (fn) => cleanups.push(fn),
    live: () => alive,
  };
  return {
    ctx,
    dispose() {
      alive = false;
      for (const fn of cleanups.splice(0).reverse()) {
        try {
          fn();
        } catch {
          // One puzzle's broken cleanup must not keep the next step from rendering.
        }
      }
    },
  };
}
