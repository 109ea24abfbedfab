import { act } from '../../../oracle-helpers/act.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/**
 * Scrolls down by less than a viewport at a time, so the code block cannot jump past the
 * viewport between two frames; the block reveals its code as soon as it is on screen.
 */
export const solveScrollToFind: ChallengeOracle = () => action(act.scroll(0, 600));
