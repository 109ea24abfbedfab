/** Something that announces an event, as a Node stream or a gRPC server call does. */
export interface EventSource {
  once(event: string, listener: () => void): unknown;
}

export interface AbortOnOptions {
  /** The event already happened (a gRPC call cancelled before its handler ran): aborted from the start. */
  already?: boolean | undefined;
  /** Checked when the event comes: false means it is no cancellation (a response that closed after it was written). */
  when?: (() => boolean) | undefined;
  /** The abort reason (default: the platform's AbortError). */
  reason?: (() => unknown) | undefined;
}

/**
 * A signal that aborts the first time `source` emits `event`: a server stops a call's work when
 * its client goes away, rather than only dropping the answer.
 */
export function abortOn(source: EventSource, event: string, options: AbortOnOptions = {}): AbortSignal {
  const controller = new AbortController();
  const abort = () => (options.reason ? controller.abort(options.reason()) : controller.abort());
  if (options.already) abort();
  else
    source.once(event, () => {
      if (options.when?.() ?? true) abort();
    });
  return controller.signal;
}
