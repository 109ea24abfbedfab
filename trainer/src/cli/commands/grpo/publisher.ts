import type { RuntimeOptions } from '../../../engine/runtime.js';
import { ModelTokenizer } from '../../../model/tokenizer.js';
import type { VersionPublisher } from '../../../rl/loop/grpo-loop.js';
import { defaultProbe, ExternalPublisher, type ModelVersionSource } from '../../../rl/publish/index.js';
import { modelFolderWriter } from '../../../rl/serving/model-folders.js';
import { ExternalVersionPublisher } from '../../../rl/serving/external.js';
import { InProcessPublisher, InProcessVersionPublisher } from '../../../rl/serving/in-process.js';
import { versionName, versionsToKeep } from '../../../rl/serving/versions.js';
import { createServeContext } from '../../../serve/create.js';
import type { ServeContext } from '../../../serve/context.js';
import type { GrpoLearner } from '../../../train/grpo/index.js';
import type { EarlierVersion } from '../../../rl/checkpoint/state.js';
import type { PolicyTensors } from '../../../train/policy-tensors.js';
import type { GrpoSettings } from './settings.js';

/**
 * Where versions go: with --vllm-url, external servers (written under --publish-dir, loaded and
 * verified); without, this process's own policy server (ctx), which the workers sample from.
 * When base weights are trained, that server's generation graph takes them as inputs, so each
 * version is served by feeding its own weight set; with --publish-dir each is also written as a
 * model folder for external servers.
 */
export async function createPublisher(
  s: GrpoSettings,
  o: {
    learner: GrpoLearner;
    modelDir: string;
    baseName: string;
    /** The model's config and tokenizer files, for the model folders written with --train full and --publish-dir. */
    source: ModelVersionSource;
    runtime: RuntimeOptions;
    /** A resumed run's version: the versions before it that its earlier process left loaded. */
    resumedAt?: number | undefined;
    /** A resumed run's earlier versions (its checkpoint's): served again in process, as its earlier process did. */
    earlier?: EarlierVersion[] | undefined;
    log: (line: string) => void;
  },
): Promise<{ publisher: VersionPublisher; ctx: ServeContext | null }> {
  const keepVersions = versionsToKeep(s.maxStaleness);
  if (s.vllmUrls.length) {
    const external = new ExternalPublisher({
      targets: s.vllmUrls.map((url) => ({ url, ...(s.apiKey ? { apiKey: s.apiKey } : {}) })),
      tolerance: s.probeTolerance,
      keepVersions,
      log: o.log,
      loadedVersions: o.resumedAt === undefined ? [] : earlierVersions(s.run, o.resumedAt, keepVersions),
    });
    const publisher = new ExternalVersionPublisher(external, {
      run: s.run,
      learner: o.learner,
      probe: defaultProbe(await ModelTokenizer.load(o.modelDir)),
      publishDir: s.publishDir,
      baseModel: s.modelDir ?? o.baseName,
      log: o.log,
    });
    return { publisher, ctx: null };
  }
  const writeFolder = s.modelVersionsDir
    ? modelFolderWriter({
        dir: s.modelVersionsDir,
        run: s.run,
        keep: keepVersions,
        source: o.source,
        base: o.learner.model.weights,
        baseModel: s.modelDir ?? o.baseName,
        log: o.log,
      })
    : undefined;
  return servePolicyInProcess({
    ...o,
    run: s.run,
    maxStaleness: s.maxStaleness,
    apiKey: s.apiKey,
    fedWeights: [...o.learner.trainer.trainedWeights.keys()],
    writeFolder,
  });
}

/**
 * This process's own policy server (ctx), which the workers sample from, and a publisher that
 * loads each version into it (keeping the versions an admissible group may still ask for).
 */
export async function servePolicyInProcess(o: {
  modelDir: string;
  baseName: string;
  run: string;
  maxStaleness: number;
  apiKey?: string | undefined;
  runtime: RuntimeOptions;
  /** Trained base weights: the generation graph takes them as inputs. */
  fedWeights?: string[];
  earlier?: EarlierVersion[] | undefined;
  writeFolder?: ((version: number, policy: PolicyTensors) => Promise<void>) | undefined;
  log: (line: string) => void;
}): Promise<{ publisher: VersionPublisher; ctx: ServeContext }> {
  const ctx = await createServeContext({
    modelDir: o.modelDir,
    servedModelName: o.baseName,
    apiKeys: o.apiKey ? [o.apiKey] : [],
    // GRPO's sampler correction compares the trainer's log-probs with the distribution sampled
    // from; the trainer does not apply the grammar, so neither do the reported values.
    logprobsMode: 'processed_logprobs',
    constrainedLogprobs: 'unconstrained',
    log: o.log,
    runtime: o.runtime,
    fedWeights: o.fedWeights ?? [],
  });
  const inProcess = new InProcessPublisher(ctx.adapters, o.run, versionsToKeep(o.maxStaleness));
  // Groups in flight at the checkpoint may still ask for these; without them they would get a 404 and be dropped.
  inProcess.restore(o.earlier ?? []);
  return { publisher: new InProcessVersionPublisher(inProcess, o.writeFolder), ctx };
}

/** The versions before `version` still inside the keep window: what the servers held besides it when the run stopped. */
function earlierVersions(run: string, version: number, keep: number): string[] {
  const first = Math.max(0, version - keep + 1);
  return Array.from({ length: Math.max(0, version - first) }, (_, i) => versionName(run, first + i));
}
