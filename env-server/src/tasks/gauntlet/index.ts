import type { TaskFamily } from '../registry.js';
import { gauntletTasks } from './define-tasks.js';
import { gauntletSite } from './site.js';

export type { ChallengeType } from './categories.js';
export { CHALLENGE_TYPES } from './challenges/index.js';
export { gauntletOracle } from './oracle/policy.js';

/** The Gauntlet family: `gauntlet` and `gauntlet:<type>` tasks on one SPA. */
export function gauntletFamily(): TaskFamily {
  return { benchmark: 'gauntlet', tasks: gauntletTasks(), site: gauntletSite() };
}
