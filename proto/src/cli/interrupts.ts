/** Subscribes `listener` to interrupts (each call is one Ctrl-C or SIGTERM) and returns the unsubscribe. */
export type Interrupts = (listener: () => void) => () => void;

/** SIGINT and SIGTERM (a container stop) of this process, every time they arrive. */
export const processInterrupts: Interrupts = (listener) => {
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
  };
};

/** One interrupt when `signal` aborts (a caller stopping an in-process run). */
export function signalInterrupts(signal: AbortSignal): Interrupts {
  return (listener) => {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  };
}
