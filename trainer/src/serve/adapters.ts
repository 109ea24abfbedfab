import type { HostTensor } from '../engine/host-tensor.js';
import { kvAdapterFeeds, kvWeightFeeds } from '../generate/adapter-feeds.js';
import type { LoraAdapter } from '../lora/adapter.js';
import { loadAdapter } from '../lora/peft.js';
import type { ModelConfig } from '../model/config.js';
import type { WeightMap } from '../model/weights.js';
import { AdapterRoots, describeLoadFailure } from './adapter-roots.js';
import { BadRequestError, NotFoundError } from './http-errors.js';

export interface LoadedLora {
  name: string;
  /** The folder it was read from (real path); kept for the operator, never sent to clients. */
  path: string;
  rank: number;
  created: number;
  feeds: Record<string, HostTensor>;
}

/** Weights the server's graph takes as inputs (KvModelOptions.fedWeights) and their base values. */
export interface FedWeights {
  names: readonly string[];
  base: WeightMap;
}

/**
 * The models a server answers to: the base (adapters off) and LoRA adapters by name. Adapters are
 * graph inputs, so loading one only reads its files; a request captures the feeds it started
 * with, so a reload (load_inplace) affects new requests only. When the graph takes weights as
 * inputs too (a full-parameter GRPO run's server), every model's feeds carry a weight set: the
 * base model's, or a published version's own.
 */
export class AdapterRegistry {
  private readonly loras = new Map<string, LoadedLora>();
  readonly baseFeeds: Record<string, HostTensor>;

  constructor(
    readonly baseName: string,
    private readonly config: ModelConfig,
    private readonly maxRank = 64,
    /** Where runtime loads may read from (none: runtime loading is off). */
    private readonly roots: AdapterRoots = AdapterRoots.none,
    /** The server's log, for what a reply leaves out. */
    private readonly log: (line: string) => void = () => {},
    private readonly fed: FedWeights = { names: [], base: new Map() },
  ) {
    this.baseFeeds = this.feedsOf();
  }

  /** Feeds for the graph: the adapter's (zeros for none) and the fed weights (the base model's unless given). */
  private feedsOf(adapter?: LoraAdapter, weights?: WeightMap, copy = false): Record<string, HostTensor> {
    const loras = kvAdapterFeeds(this.config, adapter);
    if (copy) for (const [k, f] of Object.entries(loras)) loras[k] = { ...f, data: f.data.slice() };
    return { ...loras, ...kvWeightFeeds(this.fed.base, this.fed.names, weights, copy) };
  }

  list(): LoadedLora[] {
    return [...this.loras.values()];
  }

  /** Feeds for a request's `model`: the base name (or none) means no adapter. */
  resolve(model: string | undefined | null): Record<string, HostTensor> {
    if (model === undefined || model === null || model === '' || model === this.baseName) return this.baseFeeds;
    const lora = this.loras.get(model);
    if (!lora)
      throw new NotFoundError(
        `The model \`${model}\` does not exist. Available: ${[this.baseName, ...this.loras.keys()].join(', ')}`,
      );
    return lora.feeds;
  }

  /** A load asked for over HTTP: only from inside the adapter roots, and the reply never quotes the files. */
  async loadRequested(name: string, path: string, inplace = false): Promise<LoadedLora> {
    this.assertNameFree(name, inplace);
    const folder = await this.roots.check(path);
    return this.load(name, folder, inplace);
  }

  /** Loads a PEFT folder the operator named (at start), or one loadRequested has checked. */
  async load(name: string, path: string, inplace = false): Promise<LoadedLora> {
    this.assertNameFree(name, inplace);
    let adapter;
    try {
      adapter = await loadAdapter(path, { model: this.config });
    } catch (error) {
      this.log(`load_lora_adapter '${name}': ${(error as Error).message}`);
      throw new BadRequestError(
        `cannot load LoRA adapter '${name}': ${describeLoadFailure(error)} (the server log has the details)`,
        'lora_path',
      );
    }
    if (adapter.config.rank > this.maxRank)
      throw new BadRequestError(
        `LoRA rank ${adapter.config.rank} is over this server's max_lora_rank ${this.maxRank}`,
        'lora_path',
      );
    const lora = {
      name,
      path,
      rank: adapter.config.rank,
      created: Math.floor(Date.now() / 1000),
      feeds: this.feedsOf(adapter),
    };
    this.loras.set(name, lora);
    return lora;
  }

  /**
   * Serves a policy held in memory (the trainer's in-process publishing): an adapter, trained
   * weights the graph takes as inputs, or both. The feeds are copies: the caller may go on
   * changing its arrays without touching what is served. The new feeds replace the old in one
   * assignment, so a request sees one version whole.
   */
  loadInMemory(
    name: string,
    policy: { adapter?: LoraAdapter | undefined; weights?: WeightMap | undefined },
    inplace = false,
  ): LoadedLora {
    this.assertNameFree(name, inplace);
    const { adapter, weights } = policy;
    if (adapter && adapter.config.rank > this.maxRank)
      throw new BadRequestError(`LoRA rank ${adapter.config.rank} is over this server's max_lora_rank ${this.maxRank}`);
    const feeds = this.feedsOf(adapter, weights, true);
    const lora = {
      name,
      path: '(in memory)',
      rank: adapter?.config.rank ?? 0,
      created: Math.floor(Date.now() / 1000),
      feeds,
    };
    this.loras.set(name, lora);
    return lora;
  }

  private assertNameFree(name: string, inplace: boolean): void {
    if (name === this.baseName)
      throw new BadRequestError(`'${name}' is the base model's name; pick another lora_name`, 'lora_name');
    if (this.loras.has(name) && !inplace) {
      throw new BadRequestError(
        `The lora adapter '${name}' has already been loaded. If you want to load the adapter in place, set 'load_inplace' to True.`,
        'lora_name',
      );
    }
  }

  unload(name: string): void {
    if (!this.loras.delete(name)) throw new NotFoundError(`The lora adapter '${name}' cannot be found.`);
  }
}
