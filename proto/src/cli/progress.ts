/** Where a command writes: results on `out` (stdout), progress and errors on `err` (stderr). */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

export const consoleIo: CommandIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Progress lines on stderr (stdout stays clean for results): `[tool] message`. */
export type Progress = (message: string) => void;

export function progressTo(io: CommandIo, tool: string): Progress {
  return (message) => io.err(`[${tool}] ${message}`);
}
