import type { BrowserContext, Page } from 'playwright-core';
import { RECORD_BINDING, recordInPage } from './record-in-page.js';

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
    await context.addInitScript(recordInPage, RECORD_BINDING);
  }
  sink.target = onInput;
  await Promise.all(page.frames().map((frame) => frame.evaluate(recordInPage, RECORD_BINDING).catch(() => undefined)));
}

/** Inputs on this context are no longer recorded. */
export function detachRecorder(context: BrowserContext): void {
  const sink = sinks.get(context);
  if (sink) sink.target = undefined;
}
