/**
 * What the server hands the in-page app and what the app reports back. Types only: the page
 * code is shipped as function source, so it shares these shapes but no runtime values.
 */

/** One step as the page receives it. */
export interface PageStep {
  type: string;
  /** The neutral, seeded step title the heading shows (never the type). */
  title: string;
  /** Empty for `websocket`: that code exists only on the server until its message arrives. */
  code: string;
  params: unknown;
  /** Where the `websocket` step connects and the ticket the server knows it by. */
  socket?: { url: string; ticket: string };
}

export interface PagePlan {
  /** Identifies the run so the server can tell a stale page from the current one. */
  runId: string;
  steps: PageStep[];
  /** Object URL-able media the server generated (the video clip). */
  media: { videoUrl: string };
}

export type PageView = 'step' | 'done' | 'locked' | 'empty';

export interface PageStatus {
  runId: string;
  view: PageView;
  /** 1-based index of the step on screen (total + 1 once done). */
  step: number;
  total: number;
  type: string;
  /** Steps solved since this page booted the run (a reload starts over at 0). */
  solved: number;
  wrongCount: number;
  /** The last code submission was wrong (cleared by a correct one). */
  lastWrong: boolean;
  /** Wrong moves inside puzzles (a decoy clicked, a popup's fake close, a too-early reveal). */
  failCount: number;
  /** A puzzle that failed to render (a bug, surfaced so tests and metadata show it). */
  error: string;
}

/** The API each challenge's page code gets; it never sees another step. */
export interface PuzzleContext<P> {
  readonly params: P;
  /** The puzzle's own area, emptied between steps. */
  readonly area: HTMLElement;
  readonly socket: { url: string; ticket: string } | null;
  readonly media: { videoUrl: string };
  /** Creates an element; attributes are set in the order given so a seed always serialises the same. */
  el(tag: string, attrs?: Record<string, string | number | boolean>, ...children: (Node | string)[]): HTMLElement;
  /** Sets the instructions paragraph(s) above the puzzle. */
  instruct(...paragraphs: string[]): void;
  /** Puts the step's code (or `code`, for the WebSocket step) into a "Revealed code" region, in `where` or the default slot. */
  reveal(code?: string, where?: HTMLElement): void;
  /** This step's code, for puzzles that display it themselves (the flashing code). */
  code(): string;
  /** Progress or feedback in the "Puzzle status" line. */
  say(text: string): void;
  /** A wrong move: said, and counted in the task's metadata. */
  fail(text: string): void;
  /**
   * A wrong move that locks the puzzle: every control in the area ignores input until the agent
   * types the stated word into "Unlock word" and presses "Unlock" (a policy that reads recovers;
   * one that presses everything does not). `onUnlock` puts the puzzle back to its start.
   */
  lock(text: string, onUnlock?: () => void): void;
  /** True while a lock is showing (controls outside the area, such as frames, check it). */
  locked(): boolean;
  later(ms: number, fn: () => void): void;
  every(ms: number, fn: () => void): void;
  /** Adds a listener that is removed when the step ends (for window, document and other long-lived targets). */
  listen(target: EventTarget, type: string, fn: (event: Event) => void, options?: AddEventListenerOptions): void;
  onCleanup(fn: () => void): void;
  /** False once the step ended: async callbacks (fetch, media, sockets) check it before touching the page. */
  live(): boolean;
}

export type Renderer<P> = (ctx: PuzzleContext<P>) => void;
