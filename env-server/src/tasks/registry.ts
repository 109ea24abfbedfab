import { UnknownTaskError } from '@gauntlet/proto';
import type { TaskDefinition } from './task.js';
import type { SiteAsset, SiteMount, TaskSite } from '../browser/site.js';

/** A task family contributes its tasks and the assets they load. */
export interface TaskFamily {
  benchmark: string;
  tasks: TaskDefinition[];
  site: TaskSite;
  /** Folders served on the task origin (real MiniWoB++ from the operator's disk). */
  mounts?: SiteMount[];
}

/**
 * Resolves the names users send (`click-test`, `miniwob.click-test`,
 * `browsergym/miniwob.click-test`) to one task; unknown names list what exists. A bare name
 * found in several benchmarks means the preferred benchmark's task (BROWSERGYM_BENCHMARK,
 * else `miniwob`).
 */
export class TaskRegistry {
  private readonly byKey = new Map<string, TaskDefinition>();
  readonly site: TaskSite;
  readonly mounts: readonly SiteMount[];

  constructor(families: TaskFamily[]) {
    const assets = new Map<string, SiteAsset>();
    const mounts: SiteMount[] = [];
    for (const family of families) {
      for (const task of family.tasks) {
        const key = `${family.benchmark}.${task.name}`;
        if (this.byKey.has(key)) throw new Error(`duplicate task ${key}`);
        this.byKey.set(key, task);
      }
      for (const [path, asset] of family.site) assets.set(path, asset);
      mounts.push(...(family.mounts ?? []));
    }
    this.site = assets;
    this.mounts = mounts;
  }

  /** Every task as `benchmark.name`. */
  names(): string[] {
    return [...this.byKey.keys()].sort();
  }

  list(): TaskDefinition[] {
    return [...this.byKey.values()];
  }

  benchmarks(): string[] {
    return [...new Set(this.list().map((task) => task.benchmark))].sort();
  }

  resolve(name: string, preferredBenchmark = 'miniwob'): TaskDefinition {
    const cleaned = name.trim().replace(/^browsergym\//, '');
    const exact = this.byKey.get(cleaned);
    if (exact) return exact;
    const preferred = this.byKey.get(`${preferredBenchmark}.${cleaned}`);
    if (preferred) return preferred;
    const bare = [...this.byKey.entries()].filter(([, task]) => task.name === cleaned);
    if (bare.length === 1) return bare[0]![1];
    if (bare.length > 1)
      throw new UnknownTaskError(
        name,
        bare.map(([k]) => k),
        true,
      );
    throw new UnknownTaskError(name, this.names());
  }
}
