import type { TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { Rng } from './rng.js';

// Groups a hostile writer to Redis could put on the trainer's queue: some fail the schema, the
// rest pass it and carry what the model cannot take. Each is one episode's edit; every one must be
// counted bad, none may reach the engine.

type Episode = Record<string, unknown> & { prompt_ids: number[]; reward: number; turns: Turn[] };
type Turn = Record<string, unknown> & { completion_ids: number[]; logprobs: number[]; env_ids: number[] };
export type HostileEdit = (episode: Episode, vocabSize: number, context: number) => void;

const first = (e: Episode) => e.turns[0]!;

export const FIXED_EDITS: Record<string, HostileEdit> = {
  'completion id 1e9': (e) => (first(e).completion_ids[0] = 1e9),
  'completion id = vocab size': (e, vocab) => (first(e).completion_ids[0] = vocab),
  'negative id': (e) => (e.prompt_ids[0] = -1),
  'fractional id': (e) => (first(e).completion_ids[0] = 3.5),
  'env id 2^53': (e) => (first(e).env_ids = [2 ** 53]),
  'id as a string': (e) => ((first(e).completion_ids as unknown[])[0] = '7'),
  '200k-token prompt': (e) => (e.prompt_ids = new Array<number>(200_000).fill(1)),
  'prompt one past the context': (e, _vocab, context) => (e.prompt_ids = new Array<number>(context).fill(1)),
  'NaN log-prob (null on the wire)': (e) => (first(e).logprobs[0] = NaN),
  'positive log-prob': (e) => (first(e).logprobs[0] = 5),
  'log-prob -1e300': (e) => (first(e).logprobs[0] = -1e300),
  'log-probs one short': (e) => first(e).logprobs.pop(),
  'reward 1e300': (e) => (e.reward = 1e300),
  'sampled tokens with no prompt': (e) => (e.prompt_ids = []),
};

const ID_VALUES = [1e9, 2 ** 31, 2 ** 53, -1, 1.5, NaN];
const LOGPROB_VALUES = [NaN, Infinity, -Infinity, 5, 0.01, -1e300];
const REWARD_VALUES = [1e300, -1e300, NaN, Infinity];

/** A seeded random edit: one hostile value in one random place. */
export function randomEdit(rng: Rng): [string, HostileEdit] {
  const where = rng.pick(['prompt_ids', 'completion_ids', 'env_ids', 'logprobs', 'reward'] as const);
  if (where === 'reward') {
    const value = rng.pick(REWARD_VALUES);
    return [`reward ${value}`, (e) => (e.reward = value)];
  }
  if (where === 'logprobs') {
    const value = rng.pick(LOGPROB_VALUES);
    return [`logprob ${value}`, (e) => (first(e).logprobs[rng.int(first(e).logprobs.length)] = value)];
  }
  const value = rng.pick([...ID_VALUES, 'vocab'] as const);
  return [
    `${where} ${value}`,
    (e, vocab) => {
      const list = where === 'prompt_ids' ? e.prompt_ids : first(e)[where];
      list.splice(rng.int(list.length + 1), 0, value === 'vocab' ? vocab : value);
      // An id added to the completion needs its log-prob, or the schema catches the length first.
      if (where === 'completion_ids') first(e).logprobs.push(-1);
    },
  ];
}

/** The group with one edit applied to a copy of its first episode. */
export function applyEdit(group: TrajectoryGroup, edit: HostileEdit, vocab: number, context: number): unknown {
  const copy = structuredClone(group) as unknown as { trajectories: Episode[] };
  edit(copy.trajectories[0]!, vocab, context);
  return copy;
}
