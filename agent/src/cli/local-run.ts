import { UsageError, type CommandContext } from '@gauntlet/proto/cli';
import { localContextTokens } from '../local/context-budget.js';
import { openLocalModel, type LocalModel } from '../local/local-model.js';
import { OPENAI_BASE_URL, type RUN_OPTIONS } from './run-options.js';

/** The default penalty of local mode: small models loop on their own output without one. */
export const LOCAL_REPETITION_PENALTY = 1.15;

export interface LocalRun {
  model: LocalModel;
  /** `--context-tokens` fitted to the served model (in the history's estimated tokens). */
  contextTokens: number;
  /** What metrics.json's `run` records about the model. */
  info: Record<string, unknown>;
}

/** `--mode local`: the model server (spawned or given) and the prompt budget that fits it. */
export async function openLocalRun({ values: v, progress }: CommandContext<typeof RUN_OPTIONS>): Promise<LocalRun> {
  if (!v['model-dir'] && v['base-url'] === OPENAI_BASE_URL)
    throw new UsageError(
      '--model-dir is needed with --mode local (or --base-url of a running vLLM-compatible server)',
      'model-dir',
    );
  const model = await openLocalModel({
    baseUrl: v['base-url'],
    progress,
    ...(v['model-dir'] ? { modelDir: v['model-dir'] } : {}),
    ...(v.adapter ? { adapter: v.adapter } : {}),
    ...(v['trainer-bin'] ? { trainerBin: v['trainer-bin'] } : {}),
    ...(v['api-key'] ? { apiKey: v['api-key'] } : {}),
    ...(v.model ? { model: v.model } : {}),
  });
  try {
    const budget = localContextTokens(v['context-tokens'], v['max-tokens'], model);
    progress(
      `local model ${model.model}${model.maxModelLen ? ` (context ${model.maxModelLen} tokens)` : ''} at ${model.baseUrl}`,
    );
    if (budget.note) progress(budget.note);
    return {
      model,
      contextTokens: budget.contextTokens,
      info: {
        model_dir: v['model-dir'] ?? null,
        adapter: v.adapter ?? null,
        max_model_len: model.maxModelLen ?? null,
        stop_token_ids: model.stopTokenIds ?? null,
      },
    };
  } catch (error) {
    await model.stop();
    throw error;
  }
}
