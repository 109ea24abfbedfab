import { defineOptions } from '../../command.js';
import { RUN_OPTIONS } from './run-options.js';
import { TRAINING_OPTIONS } from './training-options.js';

/**
 * Every knob of `gauntlet-trainer grpo`, in the order `--help` lists them: flags, and the keys
 * of a --config file (same names, or snake_case).
 */
export const GRPO_OPTIONS = defineOptions({ ...TRAINING_OPTIONS, ...RUN_OPTIONS });
