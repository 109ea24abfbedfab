import type { ChallengeType } from '../challenge-types.js';
import type { ChallengeOracle } from './move.js';
import { solveCookieStorage, solveModalDecoy, solveMultiStep } from './types/advanced.js';
import { solveClickSequence } from './types/click-sequence.js';
import { solveDragAndDrop } from './types/drag-and-drop.js';
import { solveEncrypted } from './types/encrypted.js';
import { solveFormFill } from './types/form-fill.js';
import { solveHoverReveal } from './types/hover-reveal.js';
import { solveAudio, solveCanvas, solveVideo } from './types/media.js';
import { solveIframe, solveShadowDom } from './types/nested-path.js';
import { solveComputedStyle, solveMutationObserver, solveObfuscated } from './types/reading.js';
import { solveScrollToFind } from './types/scroll-to-find.js';
import { solveSlider } from './types/slider.js';
import { solveTimer } from './types/timer.js';
import { solveAnimatedButton, solveWebsocket } from './types/timing.js';

/** One oracle per challenge type. */
export const ORACLES: Readonly<Record<ChallengeType, ChallengeOracle>> = {
  scroll_to_find: solveScrollToFind,
  click_sequence: solveClickSequence,
  hover_reveal: solveHoverReveal,
  form_fill: solveFormFill,
  drag_and_drop: solveDragAndDrop,
  slider: solveSlider,
  shadow_dom: solveShadowDom,
  iframe: solveIframe,
  computed_style: solveComputedStyle,
  mutation_observer: solveMutationObserver,
  timer: solveTimer,
  animated_button: solveAnimatedButton,
  websocket: solveWebsocket,
  canvas: solveCanvas,
  audio: solveAudio,
  video: solveVideo,
  multi_step: solveMultiStep,
  obfuscated: solveObfuscated,
  encrypted: solveEncrypted,
  cookie_storage: solveCookieStorage,
  modal_decoy: solveModalDecoy,
};
