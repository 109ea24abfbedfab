import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UsageError, type CommandContext, type OptionSpec } from '../../command.js';

type Options = CommandContext['options'];

/**
 * Reads a YAML or JSON file of command options (keys are the flag names; snake_case works too)
 * and returns them as parsed flags would be, so the same checks apply; every problem names the
 * file and the key.
 */
export async function readConfigFile(path: string, specs: Record<string, OptionSpec>): Promise<Options> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--config ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new UsageError(
      `--config ${path}: not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw new UsageError(`--config ${path}: must be a mapping of option names to values`);
  const out: Options = {};
  for (const [rawKey, value] of Object.entries(data)) {
    const key = rawKey.replaceAll('_', '-');
    const spec = specs[key];
    const where = `--config ${path}: ${rawKey}`;
    if (!spec || key === 'config') throw new UsageError(`${where}: unknown option (see --help for the names)`);
    if (value === null || value === undefined) continue;
    if (spec.kind === 'boolean') {
      if (typeof value !== 'boolean') throw new UsageError(`${where}: must be true or false`);
      out[key] = value;
    } else if (spec.repeatable) {
      const items = Array.isArray(value) ? value : [value];
      out[key] = items.map((item) => scalar(item, where));
    } else out[key] = scalar(value, where);
  }
  return out;
}

function scalar(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new UsageError(`${where}: must be a string or a number`);
}

/**
 * File options under flags: a flag given on the command line replaces the file's value. A boolean
 * flag reads false when absent (it has no --no- form), so false leaves the file's value.
 */
export function mergeOptions(fromFile: Options, flags: Options): Options {
  const merged: Options = { ...fromFile };
  for (const [key, value] of Object.entries(flags)) if (value !== undefined && value !== false) merged[key] = value;
  return merged;
}
