/**
 * The process outlives any one request: an error nothing else caught is logged (with its stack,
 * for the operator; never sent to a client) and the server keeps serving. A connection may die
 * of it, the process and every other session may not.
 */
let unexpected = 0;

export function reportUnexpected(where: string, error: unknown): void {
  unexpected += 1;
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(`[gauntlet-env] unexpected error in ${where} (kept serving): ${detail}`);
}

/** How many errors reached the last resort since start; `/metrics` exports it. */
export function unexpectedErrorCount(): number {
  return unexpected;
}

/** Installs the process-wide handlers once; only the server's own entry point calls this. */
export function installLastResortHandlers(): void {
  process.on('uncaughtException', (error) => reportUnexpected('the process (uncaught exception)', error));
  process.on('unhandledRejection', (reason) => reportUnexpected('the process (unhandled rejection)', reason));
}
