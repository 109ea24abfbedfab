import { onWallClock } from '../../src/tasks/gauntlet/challenges/index.js';
import { planRun } from '../../src/tasks/gauntlet/plan.js';
import { describeFamilyConformance } from './family-conformance.js';
import { describeChallengeFolders } from './gauntlet-folders.js';

/**
 * The conformance suite resets seed 7: a task is timed when the step it opens on moves on its own
 * clock (its type's `wallClock`), since then two looks differ by when they look.
 */
const opensOnTimedStep = (name: string): boolean =>
  onWallClock(name === 'gauntlet' ? planRun(7).steps[0]!.type : name.replace(/^gauntlet:/, ''));

// One seed per task: the Gauntlet's own suites play 20 seeds of every challenge type.
describeFamilyConformance('gauntlet', {
  select: (task) => task.benchmark === 'gauntlet',
  timed: (task) => opensOnTimedStep(task.name),
  oracleSeeds: [5],
  timeoutMs: 15 * 60_000,
});

// Adding a type is adding a folder (tasks/gauntlet/README.md): the checklist, enforced.
describeChallengeFolders();
