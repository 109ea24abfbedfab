import { ConfigError, type ServerConfig } from '../config.js';
import { UnknownTaskError } from '@gauntlet/proto';
import type { TaskRegistry } from './registry.js';
import type { TaskDisplay } from '../browser/site.js';

/** Settings the tasks on offer imply, next to the operator's own. */
export interface EnvConfig extends ServerConfig {
  /** The display of tasks that ask for none: the configured viewport at scale 1. */
  baseDisplay: TaskDisplay;
  /** The display warm contexts are made with: the default task's, so its first reset needs no new context. */
  warmDisplay: TaskDisplay;
  /** Static origins whose responses the browser pool keeps in memory (real MiniWoB++ behind MINIWOB_URL). */
  cachedOrigins: string[];
}

/**
 * Checks the benchmark and default task against the registry (a typo fails at start, not at the
 * first reset), lets pages reach real MiniWoB++'s origin, and picks the displays.
 */
export function withTaskSettings(config: ServerConfig, registry: TaskRegistry): EnvConfig {
  if (config.benchmark !== undefined && !registry.benchmarks().includes(config.benchmark))
    throw new ConfigError(
      `BROWSERGYM_BENCHMARK (--benchmark) ${JSON.stringify(config.benchmark)} is not served here; benchmarks: ${registry.benchmarks().join(', ')}`,
    );
  let defaultTask;
  try {
    defaultTask = registry.resolve(config.defaultTask, config.benchmark);
  } catch (error) {
    if (error instanceof UnknownTaskError)
      throw new ConfigError(`BROWSERGYM_TASK_NAME (--task): ${error.message.slice(0, 500)}`);
    throw error;
  }
  const baseDisplay = { width: config.viewport.width, height: config.viewport.height, deviceScaleFactor: 1 };
  return {
    ...config,
    allowedOrigins: pageOrigins(config),
    baseDisplay,
    warmDisplay: defaultTask.display ?? baseDisplay,
    cachedOrigins: miniwobOrigin(config.miniwobUrl),
  };
}

/** Every origin pages may reach beside the task origin: the operator's (--allow-origin) and real MiniWoB++'s. */
export function pageOrigins(config: Pick<ServerConfig, 'allowedOrigins' | 'miniwobUrl'>): string[] {
  return [...config.allowedOrigins, ...miniwobOrigin(config.miniwobUrl)];
}

function miniwobOrigin(url: string | undefined): string[] {
  if (!url) return [];
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? [parsed.origin] : [];
}
