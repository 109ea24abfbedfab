import type { StepView } from './step-view.js';

/** What a challenge oracle decides: the next action, or the code once it knows it. */
export type Move = { action: string } | { code: string };

/** A policy for one challenge type: the step's observation in, a move out. */
export type ChallengeOracle = (view: StepView) => Move;

export const action = (text: string): Move => ({ action: text });
export const code = (text: string): Move => ({ code: text });
