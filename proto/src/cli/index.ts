/**
 * The CLI kit every Gauntlet bin can share: a command declares its flags in one table
 * (defineOptions: kind, default, env var, help), runTool parses strictly (flag > --config JSON or YAML >
 * environment > default), writes --help from the table, turns UsageError into one line and exit
 * 2, other GauntletErrors into one line and exit 1, Ctrl-C into 130, and gives the command a
 * progress function (stderr). Every gauntlet-* bin runs through runTool (its bin entry: runBin).
 */
export { findBin, startChildBin, type ChildBin, type ChildBinOptions } from './child-bin.js';
export { closestName } from './closest.js';
export { commandHelp, toolHelp } from './help.js';
export {
  defineOptions,
  type OptionKind,
  type OptionSpec,
  type OptionTable,
  type OptionValues,
  type PositionalSpec,
} from './option-table.js';
export { convert as convertOption, parseOptions, type ParseInput, type Parsed } from './parse.js';
export { consoleIo, progressTo, type CommandIo, type Progress } from './progress.js';
export { parseSeeds } from './seeds.js';
export { checkTaskNames, type TaskNameCheck, type TaskNameCheckOptions } from './task-names.js';
export { table } from './table.js';
export {
  defineCommand,
  type AnyCommand,
  type Command,
  type CommandContext,
  type Tool,
  type ToolExtension,
} from './command.js';
export { runBin } from './bin-entry.js';
export { processInterrupts, signalInterrupts, type Interrupts } from './interrupts.js';
export { runTool, type RunToolOptions } from './tool.js';
export { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './usage-error.js';
