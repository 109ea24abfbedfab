/** The 21 challenge types of the spec, grouped by category, in the spec's order. */
export const CHALLENGE_CATEGORIES = {
  navigation: ['scroll_to_find', 'click_sequence', 'hover_reveal'],
  input: ['form_fill', 'drag_and_drop', 'slider'],
  hidden_content: ['shadow_dom', 'iframe', 'computed_style', 'mutation_observer'],
  timing: ['timer', 'animated_button', 'websocket'],
  media: ['canvas', 'audio', 'video'],
  advanced: ['multi_step', 'obfuscated', 'encrypted', 'cookie_storage', 'modal_decoy'],
} as const;

export type ChallengeCategory = keyof typeof CHALLENGE_CATEGORIES;
export type ChallengeType = (typeof CHALLENGE_CATEGORIES)[ChallengeCategory][number];

export const CHALLENGE_TYPES: readonly ChallengeType[] = Object.values(CHALLENGE_CATEGORIES).flat();

export function isChallengeType(name: string): name is ChallengeType {
  return (CHALLENGE_TYPES as readonly string[]).includes(name);
}

export function categoryOf(type: ChallengeType): ChallengeCategory {
  const entry = Object.entries(CHALLENGE_CATEGORIES).find(([, types]) => (types as readonly string[]).includes(type));
  return entry![0] as ChallengeCategory;
}

/** Codes are six characters from this alphabet (`[A-Z0-9]{6}`). */
export const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const CODE_LENGTH = 6;
export const CODE_PATTERN = /^[A-Z0-9]{6}$/;
