import { typesIn } from '../../src/tasks/gauntlet/challenges/index.js';
import { oracleSuite } from './oracle-suite.js';

oracleSuite(typesIn('hidden_content'));
