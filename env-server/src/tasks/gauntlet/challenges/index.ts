import type { AnyChallenge } from '../challenge.js';
import { CHALLENGE_TYPES, type ChallengeType } from '../challenge-types.js';
import { animatedButton } from './animated-button.js';
import { audio } from './audio.js';
import { canvas } from './canvas.js';
import { clickSequence } from './click-sequence.js';
import { computedStyle } from './computed-style.js';
import { cookieStorage } from './cookie-storage.js';
import { dragAndDrop } from './drag-and-drop.js';
import { encrypted } from './encrypted.js';
import { formFill } from './form-fill.js';
import { hoverReveal } from './hover-reveal.js';
import { iframe } from './iframe.js';
import { modalDecoy } from './modal-decoy.js';
import { multiStep } from './multi-step.js';
import { mutationObserver } from './mutation-observer.js';
import { obfuscated } from './obfuscated.js';
import { scrollToFind } from './scroll-to-find.js';
import { shadowDom } from './shadow-dom.js';
import { slider } from './slider.js';
import { timer } from './timer.js';
import { video } from './video.js';
import { websocket } from './websocket.js';

const ALL: AnyChallenge[] = [
  scrollToFind,
  clickSequence,
  hoverReveal,
  formFill,
  dragAndDrop,
  slider,
  shadowDom,
  iframe,
  computedStyle,
  mutationObserver,
  timer,
  animatedButton,
  websocket,
  canvas,
  audio,
  video,
  multiStep,
  obfuscated,
  encrypted,
  cookieStorage,
  modalDecoy,
];

/** Every challenge type, by type (the spec's order). */
export const CHALLENGES: ReadonlyMap<ChallengeType, AnyChallenge> = new Map(ALL.map((c) => [c.type, c]));

export function challengeFor(type: ChallengeType): AnyChallenge {
  const found = CHALLENGES.get(type);
  if (!found) throw new Error(`challenge type ${type} has no implementation (known: ${CHALLENGE_TYPES.join(', ')})`);
  return found;
}
