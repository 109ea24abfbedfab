// A vitest reporter that ends each run with the slowest test files, so the time CI spends has
// names (added next to the default reporter in vitest.config.ts).
import { relative } from 'node:path';

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

export default class SlowestFilesReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules) {
    const files = testModules.map((module) => ({
      file: relative(this.root ?? process.cwd(), module.moduleId),
      seconds: fileSeconds(module.diagnostic()),
    }));
    if (files.length < 2) return;
    const lines = slowestLines(files);
    process.stdout.write(`\nSlowest ${lines.length} test files:\n${lines.join('\n')}\n`);
  }
}
