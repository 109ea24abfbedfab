export { commandHelp, toolHelp } from './help.js';
export {
  defineOptions,
  type OptionKind,
  type OptionSpec,
  type OptionTable,
  type OptionValues,
  type PositionalSpec,
} from './option-table.js';
export { parseOptions, type ParseInput, type Parsed } from './parse.js';
export { consoleIo, progressTo, type CommandIo, type Progress } from './progress.js';
export { parseSeeds } from './seeds.js';
export { table } from './table.js';
export {
  defineCommand,
  runTool,
  type AnyCommand,
  type Command,
  type CommandContext,
  type RunToolOptions,
  type Tool,
} from './tool.js';
export { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './usage-error.js';
