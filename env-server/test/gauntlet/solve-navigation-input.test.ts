import { CHALLENGE_CATEGORIES } from '../../src/tasks/gauntlet/challenge-types.js';
import { oracleSuite } from './oracle-suite.js';

// Each category file runs its own browser, so the four files share the CI's two cores.
oracleSuite([...CHALLENGE_CATEGORIES.navigation, ...CHALLENGE_CATEGORIES.input]);
