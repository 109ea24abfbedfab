// A vitest reporter that ends each run with the slowest test files, so the time CI spends has
// names (added next to the default reporter in vitest.config.ts). With GAUNTLET_RECORD_TEST_SECONDS
// set, it also writes every file's seconds into test/file-seconds.json, the costs that
// scripts/test-order.mjs starts the costliest files first by.
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FILE_SECONDS, readFileSeconds } from './test-order.mjs';

/** Seconds a file took: preparing its worker, importing it, and every test and hook. */
export function fileSeconds(diagnostic) {
  const { prepareDuration = 0, collectDuration = 0, setupDuration = 0, duration = 0 } = diagnostic;
  return (prepareDuration + collectDuration + setupDuration + duration) / 1000;
}

/** The `count` slowest files as aligned lines, slowest first. */
export function slowestLines(files, count = 15) {
  const top = [...files].sort((a, b) => b.seconds - a.seconds).slice(0, count);
  return top.map(({ file, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${file}`);
}

/**
 * The record after a run: the files it ran at their new seconds, the others as recorded, less
 * those that no longer exist (`exists(file)`); sorted by path, so the file diffs well.
 */
export function updatedSeconds(recorded, files, exists) {
  const merged = { ...recorded };
  for (const { file, seconds } of files) merged[file] = Math.round(seconds * 10) / 10;
  const kept = Object.keys(merged)
    .filter(exists)
    .sort()
    .map((file) => [file, merged[file]]);
  return Object.fromEntries(kept);
}

export default class SlowestFilesReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules) {
    const files = testModules.map((module) => ({
      file: relative(this.root ?? process.cwd(), module.moduleId),
      seconds: fileSeconds(module.diagnostic()),
    }));
    if (process.env['GAUNTLET_RECORD_TEST_SECONDS']) this.record(files);
    if (files.length < 2) return;
    const lines = slowestLines(files);
    process.stdout.write(`\nSlowest ${lines.length} test files:\n${lines.join('\n')}\n`);
  }

  record(files) {
    const root = this.root ?? process.cwd();
    const path = join(root, FILE_SECONDS);
    const updated = updatedSeconds(readFileSeconds(path), files, (file) => existsSync(join(root, file)));
    writeFileSync(path, `${JSON.stringify(updated, null, 2)}\n`);
    process.stdout.write(`\nRecorded the seconds of ${files.length} test files in ${FILE_SECONDS}\n`);
  }
}
