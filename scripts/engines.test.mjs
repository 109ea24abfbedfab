import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { expect, it } from 'vitest';

const read = (path) => JSON.parse(readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8'));

it('every locked package runs on the oldest Node the README and images promise (no EBADENGINE)', () => {
  const floor = semver.minVersion(read('../package.json').engines.node);
  const lock = read('../package-lock.json');
  const refused = Object.entries(lock.packages)
    .filter(([path, meta]) => path && meta.engines?.node && !semver.satisfies(floor, meta.engines.node))
    .map(([path, meta]) => `${path} needs node ${meta.engines.node}`);
  expect(refused).toEqual([]);
});
