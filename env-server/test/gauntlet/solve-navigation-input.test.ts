import { typesIn } from '../../src/tasks/gauntlet/challenges/index.js';
import { oracleSuite } from './oracle-suite.js';

// Each category file runs its own browser, so the four files share the CI's two cores.
oracleSuite([...typesIn('navigation'), ...typesIn('input')]);
