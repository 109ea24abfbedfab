import type { AnyCommand } from '../command.js';
import { dpoCommand } from './dpo/dpo.js';
import { exportAdapterCommand } from './export-adapter.js';
import { grpoCommand } from './grpo/grpo.js';
import { initTinyCommand } from './init-tiny.js';
import { inspectCommand } from './inspect/inspect.js';
import { learnCommand } from './learn/learn.js';
import { serveCommand } from './serve.js';
import { plotCommand } from './plot.js';
import { sdftCommand } from './sdft/sdft.js';
import { sftCommand } from './sft/sft.js';

/**
 * Every subcommand, in the order `--help` lists them. To add one (serve, grpo): write
 * `commands/<name>.ts` exporting a command (`defineCommand`), and add it here.
 */
export const COMMANDS: readonly AnyCommand[] = [
  initTinyCommand,
  inspectCommand,
  sftCommand,
  dpoCommand,
  sdftCommand,
  exportAdapterCommand,
  serveCommand,
  grpoCommand,
  learnCommand,
  plotCommand,
];
