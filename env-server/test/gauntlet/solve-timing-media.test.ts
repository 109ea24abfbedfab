import { CHALLENGE_CATEGORIES } from '../../src/tasks/gauntlet/challenge-types.js';
import { oracleSuite } from './oracle-suite.js';

oracleSuite([...CHALLENGE_CATEGORIES.timing, ...CHALLENGE_CATEGORIES.media]);
