// A vitest sequencer that starts the costliest test files first, by the seconds each took in a
// recorded run (test/file-seconds.json). Files are handed to vitest's workers in this order, so
// a long file started last cannot leave one worker busy while the others have nothing to do.
// CI starts from a clean clone, without vitest's own cache of durations: hence a file in git.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';

/** Where the recorded seconds per file live, relative to the repository root. */
export const FILE_SECONDS = 'test/file-seconds.json';

/** The recorded seconds per file ({} when there is no record, or it is unreadable). */
export function readFileSeconds(path) {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * `files` (with a `file` path each) in the order to start them: files with no record first (a
 * new file may be long, and its cost is learnt only once it has run), then by recorded seconds,
 * costliest first; ties by path, so the order is the same on every machine.
 */
export function costliestFirst(files, seconds) {
  const cost = (file) => (typeof seconds[file] === 'number' ? seconds[file] : Infinity);
  return [...files].sort((a, b) => cost(b.file) - cost(a.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

export default class CostliestFirstSequencer extends BaseSequencer {
  async sort(specs) {
    const root = this.ctx.config.root;
    const seconds = readFileSeconds(join(root, FILE_SECONDS));
    const files = specs.map((spec) => ({ spec, file: relative(root, spec.moduleId) }));
    return costliestFirst(files, seconds).map(({ spec }) => spec);
  }
}
