import { CHALLENGE_CATEGORIES } from '../../src/tasks/gauntlet/challenge-types.js';
import { solverSuite } from './solver-suite.js';

solverSuite([...CHALLENGE_CATEGORIES.timing, ...CHALLENGE_CATEGORIES.media]);
