import type { ModelConfig } from '../model/config.js';
import type { KvCache } from './kv-cache.js';

type KvShape = Pick<ModelConfig, 'numLayers' | 'numKvHeads' | 'headDim'>;

/** Tokens per cached block (vLLM's default block size). */
export const DEFAULT_BLOCK_TOKENS = 16;
/** The default budget, in bytes of cached keys and values. */
const DEFAULT_BUDGET_BYTES = 512 * 2 ** 20;

/** Bytes of keys and values one token holds across all layers (float32). */
export function kvBytesPerToken(shape: KvShape): number {
  return shape.numLayers * 2 * shape.numKvHeads * shape.headDim * 4;
}

/** The default token budget: as many tokens as 512 MiB of keys and values hold for this model. */
export function defaultPrefixCacheTokens(shape: KvShape): number {
  return Math.floor(DEFAULT_BUDGET_BYTES / kvBytesPerToken(shape));
}

interface Block {
  readonly id: number;
  readonly key: string;
  readonly parent: Block | undefined;
  readonly children: Set<Block>;
  /** KvCache.readBlock's layout: per layer, keys then values, each [kvHeads, blockTokens, d]. */
  readonly kv: Float32Array;
}

export interface PrefixHit {
  /** Prompt tokens whose keys and values the blocks hold (a multiple of the block size). */
  tokens: number;
  blocks: Float32Array[];
}

/** Counters read by the server's /metrics. */
export interface PrefixCacheStats {
  /** Prompts looked up, and those that reused at least one block. */
  lookups: number;
  hits: number;
  /** Prompt tokens looked up, and those whose keys and values were reused instead of prefilled. */
  queryTokens: number;
  hitTokens: number;
  /** Blocks dropped to make room. */
  evictedBlocks: number;
}

/**
 * Keys and values of token prefixes already computed, so a prompt that extends one (the next turn
 * of a multi-turn episode resends the whole conversation) prefills only its new tokens.
 *
 * Prefixes are cut into fixed blocks of `blockTokens`, each keyed by its parent block and its own
 * token ids, with the first block keyed by the adapter it was computed under; the longest cached
 * prefix is the longest run of blocks found from the start. Blocks rather than a token-level trie:
 * every block costs the same bytes, so the budget is exact and eviction frees one unit at a time;
 * prompts that share a start (a system prompt, a GRPO group) share its blocks; and blocks are
 * copied in and out of a sequence's contiguous cache whole. The price is that up to
 * blockTokens − 1 tokens of a reusable prefix are prefilled again. Keys are the exact ids, not a
 * hash of them, so two prefixes can never be mistaken for each other.
 *
 * Eviction is least recently used. A use refreshes a chain from its last block back to its first,
 * so a block is always more recent than the blocks that extend it and the oldest block is a leaf:
 * a prefix is dropped from its end, never leaving unreachable blocks behind.
 */
export class PrefixCache {
  readonly blockTokens: number;
  readonly capacityBlocks: number;
  private readonly bytesPerBlock: number;
  readonly stats: PrefixCacheStats = { lookups: 0, hits: 0, queryTokens: 0, hitTokens: 0, evictedBlocks: 0 };
  /** Every block by key, least recently used first: a Map iterates in insertion order, and a use re-inserts. */
  private readonly blocks = new Map<string, Block>();
  /**
   * Keys and values depend on the adapter, so each adapter-feeds object gets its own namespace. A
   * reloaded adapter gets a new feeds object, hence a new namespace: nothing computed under the
   * old weights is reused. Blocks of an unloaded adapter are never hit again and age out.
   */
  private readonly namespaces = new WeakMap<object, number>();
  private nextNamespace = 0;
  private nextBlock = 0;

  constructor(shape: KvShape, options: { maxTokens: number; blockTokens?: number }) {
    this.blockTokens = options.blockTokens ?? DEFAULT_BLOCK_TOKENS;
    if (!Number.isInteger(this.blockTokens) || this.blockTokens < 1)
      throw new RangeError(`prefix cache block size must be a positive integer (got ${this.blockTokens})`);
    this.capacityBlocks = Math.max(0, Math.floor(options.maxTokens / this.blockTokens));
    this.bytesPerBlock = kvBytesPerToken(shape) * this.blockTokens;
  }

  get cachedTokens(): number {
    return this.blocks.size * this.blockTokens;
  }

  get capacityTokens(): number {
    return this.capacityBlocks * this.blockTokens;
  }

  get cachedBytes(): number {
    return this.blocks.size * this.bytesPerBlock;
  }

  /**
   * The longest cached prefix of `tokens` computed under `owner`, at most `limit` tokens long
   * (a prompt keeps at least its last token to prefill: its logits give the first draw).
   */
  lookup(owner: object, tokens: readonly number[], limit = tokens.length): PrefixHit {
    this.stats.lookups++;
    this.stats.queryTokens += tokens.length;
    const chain: Block[] = [];
    const most = Math.floor(Math.min(limit, tokens.length) / this.blockTokens);
    for (let i = 0; i < most; i++) {
      const block = this.blocks.get(this.key(owner, chain.at(-1), tokens, i));
      if (!block) break;
      chain.push(block);
    }
    if (chain.length === 0) return { tokens: 0, blocks: [] };
    this.touch(chain);
    const hit = chain.length * this.blockTokens;
    this.stats.hits++;
    this.stats.hitTokens += hit;
    return { tokens: hit, blocks: chain.map((b) => b.kv) };
  }

  /**
   * Caches the full blocks of `tokens` that are not cached yet, copying their keys and values out
   * of `cache`, which holds the keys and values of `tokens` from position 0 on. A prefix longer
   * than the whole budget keeps its first blocks.
   */
  insert(owner: object, tokens: readonly number[], cache: KvCache): void {
    const full = Math.min(Math.floor(Math.min(tokens.length, cache.length) / this.blockTokens), this.capacityBlocks);
    const chain: Block[] = [];
    for (let i = 0; i < full; i++) {
      const parent = chain.at(-1);
      const key = this.key(owner, parent, tokens, i);
      let block = this.blocks.get(key);
      if (!block) {
        // The chain so far is at most capacity − 1 blocks, so something outside it can go.
        while (this.blocks.size >= this.capacityBlocks) {
          if (!this.evictOldest(chain)) break;
        }
        block = {
          id: this.nextBlock++,
          key,
          parent,
          children: new Set(),
          kv: cache.readBlock(i * this.blockTokens, this.blockTokens),
        };
        parent?.children.add(block);
        this.blocks.set(key, block);
      }
      chain.push(block);
    }
    if (chain.length > 0) this.touch(chain);
  }

  private key(owner: object, parent: Block | undefined, tokens: readonly number[], index: number): string {
    const ids = tokens.slice(index * this.blockTokens, (index + 1) * this.blockTokens).join(',');
    return parent ? `${parent.id}/${ids}` : `a${this.namespace(owner)}/${ids}`;
  }

  private namespace(owner: object): number {
    let id = this.namespaces.get(owner);
    if (id === undefined) {
      id = this.nextNamespace++;
      this.namespaces.set(owner, id);
    }
    return id;
  }

  /** Marks a chain used, its last block first, so each block ends up more recent than its extensions. */
  private touch(chain: readonly Block[]): void {
    for (let i = chain.length - 1; i >= 0; i--) {
      const block = chain[i]!;
      this.blocks.delete(block.key);
      this.blocks.set(block.key, block);
    }
  }

  private evictOldest(pinned: readonly Block[]): boolean {
    for (const block of this.blocks.values()) {
      if (pinned.includes(block)) continue;
      this.remove(block);
      return true;
    }
    return false;
  }

  /** Removes a block and (should it have any) the blocks extending it, which nothing could reach any more. */
  private remove(block: Block): void {
    for (const child of block.children) this.remove(child);
    block.parent?.children.delete(block);
    this.blocks.delete(block.key);
    this.stats.evictedBlocks++;
  }
}
