/**
 * The full Gauntlet's length (the spec's 30 steps): its `start_step` reset option runs from 1 to
 * this, and clients check it before a reset rather than after.
 */
export const GAUNTLET_STEPS = 30;
