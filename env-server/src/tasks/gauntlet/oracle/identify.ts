import type { AxNode } from '../../oracle-helpers/axtree-lines.js';
import type { ChallengeType } from '../categories.js';

/**
 * Which kind of puzzle a step shows, read the way an agent must: the page never names its type,
 * so the oracle recognises each puzzle by what its instructions ask and what its area holds.
 * The first matching rule wins (more specific rules come first).
 */
const RULES: [ChallengeType, (text: string, puzzle: readonly AxNode[]) => boolean][] = [
  ['websocket', (t) => /code server/.test(t)],
  ['timer', (t) => /page clock/.test(t)],
  ['cookie_storage', (t) => /"Stored data"/.test(t)],
  ['modal_decoy', (t) => /popups? (are|is) open/i.test(t)],
  ['multi_step', (t) => /^Three stages/.test(t)],
  ['form_fill', (t) => /^Fill in the form/.test(t)],
  ['drag_and_drop', (t) => /drop zone/.test(t)],
  ['click_sequence', (t) => /Click the buttons in this order/.test(t)],
  ['hover_reveal', (t) => /^Hover over/.test(t)],
  ['slider', (t) => /slider/.test(t)],
  ['shadow_dom', (t) => /nested panels/.test(t)],
  ['iframe', (t) => /frame "/.test(t)],
  ['computed_style', (t) => /CSS draws/.test(t)],
  ['mutation_observer', (t) => /flash in the box/.test(t)],
  ['canvas', (t) => /^Draw one stroke/.test(t)],
  ['audio', (t) => /\bclip\b/.test(t) && !/video/i.test(t)],
  ['video', (t) => /video/i.test(t)],
  ['animated_button', (t) => /slides right/.test(t)],
  ['obfuscated', (t) => /Rule:/.test(t)],
  ['encrypted', (t) => /encrypted/.test(t)],
  ['scroll_to_find', (_t, puzzle) => puzzle.some((n) => n.role === 'region' && n.name === 'Code block')],
];

/** The types a rule recognises (every discovered type needs one: the conformance suite checks). */
export const RECOGNISED_TYPES: readonly ChallengeType[] = RULES.map(([type]) => type);

export function identifyPuzzle(instructions: string, puzzle: readonly AxNode[]): ChallengeType | undefined {
  return RULES.find(([, matches]) => matches(instructions, puzzle))?.[0];
}
