import type { AnyCommand } from '../command.js';
import { evalCommand } from './eval.js';
import { runCommand } from './run.js';
import { statusCommand } from './status.js';
import { submitCommand } from './submit.js';

export const COMMANDS: readonly AnyCommand[] = [runCommand, submitCommand, evalCommand, statusCommand];
