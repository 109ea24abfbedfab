import { describeFamilyConformance } from './family-conformance.js';

describeFamilyConformance('miniwob (built-in)', {
  select: (task) => task.benchmark === 'miniwob',
  oracleSeeds: [1, 2, 3],
});
