import { Tokenizer } from '@huggingface/tokenizers';
import { kvAdapterFeeds } from '../../src/generate/adapter-feeds.js';
import { GenerationEngine, type EngineOptions } from '../../src/generate/engine.js';
import { KvModel } from '../../src/generate/kv-model.js';
import { byteLevelTokenizerJson } from '../../src/model/byte-tokenizer.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import type { TinyModelOptions } from '../../src/model/tiny.js';
import { tinyModel } from '../support/tiny-models.js';

/** The in-memory tiny model behind a GenerationEngine, with the byte-level tokenizer. */
export async function tinyEngine(options: TinyModelOptions = {}, engine: Partial<EngineOptions> = {}) {
  const { config, weights } = tinyModel(options);
  const tokenizer = new ModelTokenizer(
    new Tokenizer(byteLevelTokenizerJson(), {}),
    null,
    config.eosTokenIds,
    null,
    false,
  );
  const model = await KvModel.create(config, weights, { intraOpNumThreads: 1 });
  const generation = new GenerationEngine(model, {
    eosTokenIds: config.eosTokenIds,
    decode: (ids) => tokenizer.decode(ids, { skipSpecialTokens: true }),
    ...engine,
  });
  return { config, weights, tokenizer, model, engine: generation, base: kvAdapterFeeds(config) };
}
