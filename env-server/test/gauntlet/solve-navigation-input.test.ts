import { CHALLENGE_CATEGORIES } from '../../src/tasks/gauntlet/challenge-types.js';
import { solverSuite } from './solver-suite.js';

// Each category file runs its own browser, so the four files share the CI's two cores.
solverSuite([...CHALLENGE_CATEGORIES.navigation, ...CHALLENGE_CATEGORIES.input]);
