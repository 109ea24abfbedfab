import { OBSERVATION_FORMATS, type ObservationFormat } from '@gauntlet/proto';
import { UsageError } from '@gauntlet/proto/cli';
import { CHALLENGE_TYPES } from '../tasks/gauntlet/challenges/index.js';

/** `gauntlet`, `gauntlet:timer,gauntlet:audio`, or `gauntlet:*` (every challenge type). */
export function parseTasks(spec: string): string[] {
  const tasks = spec
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .flatMap((t) => (t === 'gauntlet:*' ? CHALLENGE_TYPES.map((type) => `gauntlet:${type}`) : [t]));
  for (const task of tasks) {
    if (
      task !== 'gauntlet' &&
      !(task.startsWith('gauntlet:') && (CHALLENGE_TYPES as readonly string[]).includes(task.slice(9)))
    ) {
      throw new UsageError(
        `--task: "${task}" is not a Gauntlet task (gauntlet, gauntlet:<type> or gauntlet:*; types: ${CHALLENGE_TYPES.join(', ')})`,
      );
    }
  }
  return tasks;
}

export function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${flag} must be a positive integer (got "${value}")`);
  return Number(value);
}

/** `--observation-format`: how collected prompts render observations (default axtree). */
export function observationFormat(value: string | undefined): ObservationFormat {
  if (value === undefined) return 'axtree';
  if ((OBSERVATION_FORMATS as readonly string[]).includes(value)) return value as ObservationFormat;
  throw new UsageError(`--observation-format must be one of ${OBSERVATION_FORMATS.join(', ')} (got "${value}")`);
}

/** Runs a flag parser, turning its complaints (unknown flag, missing value) into usage errors. */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The flags `solve` and `collect` share, for their --help. */
export const COMMON_FLAGS_HELP = `  --task <list>         gauntlet (default), gauntlet:<type>, a comma list, or gauntlet:* for every type
  --seeds <spec>        seeds: 7, 0-99, or 0-9,20-29 (default 0-9)
  --concurrency <n>     sessions played at once (default 2)
  --start-step <n>      start full runs at step n (the built-in oracle plays the steps before it)
  --chromium-path <p>   Chromium binary (default: Playwright's, CHROMIUM_PATH, or Debian's)`;
