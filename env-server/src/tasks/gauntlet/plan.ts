import { GAUNTLET_STEPS } from '@gauntlet/proto';
import type { ChallengeType } from './categories.js';
import { CHALLENGE_TYPES, challengeFor } from './challenges/index.js';
import { CODE_ALPHABET, CODE_LENGTH } from './codes.js';
import { WORDS } from './challenges/words.js';
import { Rng } from './rng.js';

export { GAUNTLET_STEPS };

export interface StepPlan {
  type: ChallengeType;
  /** The heading's neutral title, seeded (it never names the type). */
  title: string;
  code: string;
  params: unknown;
}

export interface RunPlan {
  seed: number;
  /** `gauntlet` for the full run, else the single challenge type. */
  kind: 'gauntlet' | ChallengeType;
  steps: StepPlan[];
}

/**
 * Everything a run will show, decided by the seed alone: challenge order (each type at least
 * once in a full run, never the same type twice in a row), unique codes and each step's params.
 */
export function planRun(seed: number, only?: ChallengeType): RunPlan {
  const types = only ? [only] : orderTypes(new Rng(seed, 'order'), CHALLENGE_TYPES, GAUNTLET_STEPS);
  const used = new Set<string>();
  const steps = types.map((type, index) => {
    const rng = new Rng(seed, only ? `single:${type}` : 'step', index);
    let code = rng.string(CODE_ALPHABET, CODE_LENGTH);
    while (used.has(code)) code = rng.string(CODE_ALPHABET, CODE_LENGTH);
    used.add(code);
    const title = stepTitle(new Rng(seed, 'title', index));
    return { type, title, code, params: cleanParams(type, rng, code) };
  });
  return { seed, kind: only ?? 'gauntlet', steps };
}

const TITLE_WORDS = ['Quiet', 'Amber', 'Hidden', 'Second', 'Northern', 'Narrow', 'Long', 'Silver', 'Open', 'Old'];

/** "Checkpoint Silver Fern": names a step without saying what its puzzle is. */
function stepTitle(rng: Rng): string {
  return `${rng.pick(['Checkpoint', 'Gate', 'Trial', 'Room', 'Stage'])} ${rng.pick(TITLE_WORDS)} ${rng.pick(WORDS)}`;
}

/** Every type once plus random repeats, shuffled until no type follows itself. */
export function orderTypes(rng: Rng, types: readonly ChallengeType[], length: number): ChallengeType[] {
  if (length < types.length) throw new RangeError(`a run of ${length} steps cannot hold all ${types.length} types`);
  const pool = [...types, ...Array.from({ length: length - types.length }, () => rng.pick(types))];
  for (;;) {
    const order = rng.shuffle(pool);
    if (order.every((type, i) => i === 0 || order[i - 1] !== type)) return order;
  }
}

/** The page must never hold a code it has not revealed: params that contain it verbatim are drawn again. */
function cleanParams(type: ChallengeType, rng: Rng, code: string): unknown {
  const challenge = challengeFor(type);
  for (let attempt = 0; attempt < 50; attempt++) {
    const params = challenge.generate(rng, code);
    if (!JSON.stringify(params).includes(code)) return params;
  }
  throw new Error(`${type}: could not draw params that keep code ${code} hidden`);
}
