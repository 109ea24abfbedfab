import { afterAll } from 'vitest';
import { describeFamilyConformance } from './family-conformance.js';
import { miniwobPages, SHARED_TASKS } from './miniwob-plusplus-source.js';

const pages = miniwobPages();
afterAll(() => pages.remove());

// Real MiniWoB++ (fixture pages, or a real copy when MINIWOB_URL is set): click-test is played
// by the oracle our built-in click-test lends it.
describeFamilyConformance('miniwob (real MiniWoB++ pages)', {
  config: pages.config,
  select: (task) => task.benchmark === 'miniwob' && SHARED_TASKS.includes(task.name),
  solvable: (task) => task.name === 'click-test',
  oracleSeeds: [1, 2, 3],
});
