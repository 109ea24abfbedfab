import type { ChallengeCategory, ChallengeType } from '../categories.js';
import type { AnyChallenge } from '../challenge.js';
import type { ChallengeTypeSpec } from '../challenge-type.js';
import { discoverChallengeTypes } from '../discover.js';
import type { ChallengeOracle } from '../oracle/move.js';

/**
 * Every challenge type, one folder each, in the spec's order (their `order`). A type's own
 * files never import this module: it is still loading them when they run.
 */
export const CHALLENGE_SPECS: readonly ChallengeTypeSpec[] = await discoverChallengeTypes(
  new URL('.', import.meta.url),
);

const BY_TYPE: ReadonlyMap<ChallengeType, ChallengeTypeSpec> = new Map(
  CHALLENGE_SPECS.map((spec) => [spec.challenge.type, spec]),
);

/** The type names, in the spec's order. */
export const CHALLENGE_TYPES: readonly ChallengeType[] = [...BY_TYPE.keys()];

/** Every challenge, by type (the spec's order). */
export const CHALLENGES: ReadonlyMap<ChallengeType, AnyChallenge> = new Map(
  CHALLENGE_SPECS.map((spec) => [spec.challenge.type, spec.challenge]),
);

export function isChallengeType(name: string): boolean {
  return BY_TYPE.has(name);
}

export function challengeTypeSpec(type: ChallengeType): ChallengeTypeSpec {
  const found = BY_TYPE.get(type);
  if (!found) throw new Error(`challenge type ${type} has no folder (known: ${CHALLENGE_TYPES.join(', ')})`);
  return found;
}

export const challengeFor = (type: ChallengeType): AnyChallenge => challengeTypeSpec(type).challenge;
export const oracleFor = (type: ChallengeType): ChallengeOracle => challengeTypeSpec(type).oracle;
export const categoryOf = (type: ChallengeType): ChallengeCategory => challengeTypeSpec(type).category;

/** The types of one category, in the spec's order. */
export function typesIn(category: ChallengeCategory): ChallengeType[] {
  return CHALLENGE_SPECS.filter((spec) => spec.category === category).map((spec) => spec.challenge.type);
}

/** Whether the type's page moves on its own clock (ChallengeTypeSpec.wallClock); false for a name that is no type. */
export const onWallClock = (type: string): boolean => BY_TYPE.get(type)?.wallClock === true;
