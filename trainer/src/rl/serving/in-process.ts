import type { AdapterRegistry } from '../../serve/adapters.js';
import type { PolicyTensors } from '../../train/policy-tensors.js';
import type { VersionPublisher } from '../loop/grpo-loop.js';
import { parseVersionName, versionName } from './versions.js';

/**
 * Publishing to the trainer's own policy server: each version (its adapter, and with
 * `--train full` its weights, which the server's graph takes as inputs) is copied into the
 * server's registry under `<run>@v<N>` (no files, no HTTP), and versions older than the last
 * `keep` are unloaded, so groups still in flight at an admissible version keep resolving.
 */
export class InProcessPublisher {
  constructor(
    private readonly registry: AdapterRegistry,
    readonly run: string,
    private readonly keep: number,
  ) {
    if (!Number.isInteger(keep) || keep < 1) throw new RangeError(`keep must be an integer ≥ 1; got ${keep}`);
  }

  /** Serves `policy` as version `version` and unloads versions that fell out of the keep window. */
  publish(version: number, policy: PolicyTensors): string {
    const name = versionName(this.run, version);
    this.registry.loadInMemory(name, policy, true);
    for (const lora of this.registry.list()) {
      const parsed = parseVersionName(lora.name);
      if (parsed?.run === this.run && parsed.version <= version - this.keep) this.registry.unload(lora.name);
    }
    return name;
  }

  /**
   * A resumed run's earlier versions (its checkpoint's `earlier`), served again before the
   * current one is published: groups still in flight may ask for them.
   */
  restore(earlier: readonly ({ version: number } & PolicyTensors)[]): void {
    for (const { version, ...policy } of [...earlier].sort((a, b) => a.version - b.version))
      this.publish(version, policy);
  }

  /** The versions of this run the server holds now, oldest first. */
  loaded(): number[] {
    return this.registry
      .list()
      .map((l) => parseVersionName(l.name))
      .filter((p): p is { run: string; version: number } => p?.run === this.run)
      .map((p) => p.version)
      .sort((a, b) => a - b);
  }
}

/** The loop's view of in-process publishing: the workers sample from their own --policy list (this server). */
export class InProcessVersionPublisher implements VersionPublisher {
  constructor(
    private readonly inner: InProcessPublisher,
    /** Also writes each version where external servers can read it (a model folder per version with --train full). */
    private readonly alsoWrite?: (version: number, policy: PolicyTensors) => Promise<void>,
  ) {}

  async publish(version: number, policy: PolicyTensors): Promise<void> {
    this.inner.publish(version, policy);
    await this.alsoWrite?.(version, policy);
  }

  rotation(): undefined {
    return undefined;
  }
}
