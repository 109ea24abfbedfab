import { typesIn } from '../../src/tasks/gauntlet/challenges/index.js';
import { oracleSuite } from './oracle-suite.js';

// Timing puzzles spend their seconds waiting on the page's clock (CPU idle): 8 sessions overlap them.
oracleSuite([...typesIn('timing'), ...typesIn('media')], { sessions: 8 });
