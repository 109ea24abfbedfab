/**
 * A challenge type's name (`scroll_to_find`): its folder under `challenges/`, with `_` for `-`.
 * The set is discovered at start-up (`challenges/index.ts`), so the compiler cannot list it; a
 * name from outside (a task name, a CLI flag) is checked with `isChallengeType`, and a name no
 * folder gives fails loudly where it is used (`challengeTypeSpec`).
 */
export type ChallengeType = string;

/** The spec's six categories, in its order; each type's folder names one. */
export const CHALLENGE_CATEGORIES = ['navigation', 'input', 'hidden_content', 'timing', 'media', 'advanced'] as const;

export type ChallengeCategory = (typeof CHALLENGE_CATEGORIES)[number];
