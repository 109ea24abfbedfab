import type { BrowserContext, Page } from 'playwright-core';
import { PLAYING_FLAG, RECORD_BINDING, recordInPage, type PlayingInput } from './record-in-page.js';

const SCRIPT_ARG = { binding: RECORD_BINDING, playing: PLAYING_FLAG };

/** Where each context's page inputs go: the session's current recording, if any. */
const sinks = new WeakMap<BrowserContext, { target: ((input: unknown) => void) | undefined }>();

/**
 * Makes `page`'s context report the person's inputs to `onInput` (replacing the sink of an
 * earlier episode on the same context). The binding and the init script are added once per
 * context; frames already loaded get the script now, later ones get it as they load.
 */
export async function installRecorder(page: Page, onInput: (input: unknown) => void): Promise<void> {
  const context = page.context();
  let sink = sinks.get(context);
  if (!sink) {
    const created: { target: ((input: unknown) => void) | undefined } = { target: undefined };
    sink = created;
    sinks.set(context, created);
    await context.exposeBinding(RECORD_BINDING, (_source, input: unknown) => created.target?.(input));
    await context.addInitScript(recordInPage, SCRIPT_ARG);
  }
  sink.target = onInput;
  await Promise.all(page.frames().map((frame) => frame.evaluate(recordInPage, SCRIPT_ARG).catch(() => undefined)));
}

/**
 * Runs `work` (the env playing a stopped input) with every frame of `page` told which event is
 * the env's own, so that one is neither stopped nor recorded again.
 */
export async function whilePlaying<T>(page: Page, input: PlayingInput, work: () => Promise<T>): Promise<T> {
  const flag = (on: PlayingInput | null) =>
    Promise.all(
      page.frames().map((frame) =>
        frame
          .evaluate(({ name, value }) => ((window as unknown as Record<string, unknown>)[name] = value), {
            name: PLAYING_FLAG,
            value: on,
          })
          .catch(() => undefined),
      ),
    );
  await flag(input);
  try {
    return await work();
  } finally {
    // A frame that navigated meanwhile starts without the expectation; the others lose it here.
    await flag(null);
  }
}

/** Whether `context` carries the recorder (its pages stop clicks and keys: no context for other episodes). */
export function hasRecorder(context: BrowserContext): boolean {
  return sinks.has(context);
}
