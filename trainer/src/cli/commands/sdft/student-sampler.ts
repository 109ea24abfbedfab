import type { RuntimeOptions } from '../../../engine/runtime.js';
import { kvAdapterFeeds } from '../../../generate/adapter-feeds.js';
import { GenerationEngine } from '../../../generate/engine.js';
import { KvModel } from '../../../generate/kv-model.js';
import { samplingParams } from '../../../generate/sampling-params.js';
import type { LoraAdapter } from '../../../lora/adapter.js';
import type { ModelConfig } from '../../../model/config.js';
import type { WeightMap } from '../../../model/weights.js';
import type { ContinuationSampler, StudentSampling } from '../../../train/sdft/step.js';

/**
 * The student's own continuations, sampled in-process by the trainer's generation engine (the
 * cached graph the server runs) with the student's adapter as it stands. Each prompt gets its own
 * seed, so a step's samples are the same on a resumed run. The prefix cache is off: its keys would
 * outlive the adapter they were computed with.
 */
export class StudentSampler implements ContinuationSampler {
  private constructor(
    private readonly config: ModelConfig,
    private readonly model: KvModel,
    private readonly engine: GenerationEngine,
  ) {}

  static async create(config: ModelConfig, weights: WeightMap, runtime?: RuntimeOptions): Promise<StudentSampler> {
    const model = await KvModel.create(config, weights, runtime);
    const engine = new GenerationEngine(model, {
      eosTokenIds: config.eosTokenIds,
      decode: () => '',
      prefixCacheTokens: 0,
    });
    return new StudentSampler(config, model, engine);
  }

  /** One continuation per prompt (its token ids, the end token included when one ended it). */
  async sample(
    prompts: readonly (readonly number[])[],
    adapter: LoraAdapter,
    sampling: StudentSampling,
    seeds: readonly number[],
    signal?: AbortSignal,
  ): Promise<number[][]> {
    const feeds = kvAdapterFeeds(this.config, adapter);
    const results = await Promise.all(
      prompts.map((prompt, i) =>
        this.engine.generate({
          prompt,
          params: samplingParams({ temperature: sampling.temperature, maxTokens: sampling.maxTokens, seed: seeds[i]! }),
          adapterFeeds: feeds,
          signal,
        }),
      ),
    );
    signal?.throwIfAborted();
    return results.map((r) => r.tokenIds);
  }

  async release(): Promise<void> {
    await this.model.release();
  }
}
