import type { TaskDefinition } from './task.js';
import type { SiteAsset, TaskSite } from './site.js';

/** A task family contributes its tasks and the assets they load. */
export interface TaskFamily {
  benchmark: string;
  tasks: TaskDefinition[];
  site: TaskSite;
}

/**
 * Resolves the names users send (`click-test`, `miniwob.click-test`,
 * `browsergym/miniwob.click-test`) to one task; unknown names list what exists.
 */
export class TaskRegistry {
  private readonly byKey = new Map<string, TaskDefinition>();
  readonly site: TaskSite;

  constructor(families: TaskFamily[]) {
    const assets = new Map<string, SiteAsset>();
    for (const family of families) {
      for (const task of family.tasks) {
        const key = `${family.benchmark}.${task.name}`;
        if (this.byKey.has(key)) throw new Error(`duplicate task ${key}`);
        this.byKey.set(key, task);
      }
      for (const [path, asset] of family.site) assets.set(path, asset);
    }
    this.site = assets;
  }

  /** Every task as `benchmark.name`. */
  names(): string[] {
    return [...this.byKey.keys()].sort();
  }

  list(): TaskDefinition[] {
    return [...this.byKey.values()];
  }

  resolve(name: string): TaskDefinition {
    const cleaned = name.trim().replace(/^browsergym\//, '');
    const exact = this.byKey.get(cleaned);
    if (exact) return exact;
    const bare = [...this.byKey.entries()].filter(([, task]) => task.name === cleaned);
    if (bare.length === 1) return bare[0]![1];
    if (bare.length > 1)
      throw new UnknownTaskError(`Task name ${JSON.stringify(name)} is ambiguous: ${bare.map(([k]) => k).join(', ')}`);
    throw new UnknownTaskError(`Unknown task ${JSON.stringify(name)}. Available: ${this.names().join(', ')}`);
  }
}

export class UnknownTaskError extends Error {
  override name = 'UnknownTaskError';
}
