import { resolve } from 'node:path';
import { ACTION_NAMES, type ActionName } from '@gauntlet/proto/agent';
import type { ObservationFormat } from '@gauntlet/proto';
import { queueConnection, type QueueConnection } from '@gauntlet/proto/rollout/queue';
import type { ExecutionProvider } from '../../../engine/runtime.js';
import { makeLoraConfig, type LoraConfig, type LoraTarget } from '../../../lora/config.js';
import { DEFAULT_CURRICULUM, type CurriculumOptions } from '../../../rl/curriculum/curriculum.js';
import { parseTaskSpecs, type TaskSpec } from '../../../rl/curriculum/task-spec.js';
import { checkRunName } from '../../../rl/serving/versions.js';
import { resolveGrpoConfig, type GrpoOptions } from '../../../train/grpo/index.js';
import { UsageError, type OptionValues } from '../../command.js';
import { formatTrainSpec, parseTrainSpec, trainsBaseWeights, type TrainSpec } from '../../../train/trainable.js';
import type { SCHEDULES } from '../sft/options.js';
import type { GRPO_OPTIONS } from './options.js';

/** Everything `gauntlet-trainer grpo` was asked to do, checked; paths absolute. */
export interface GrpoSettings {
  modelDir?: string;
  /** What is trained (--train): the adapter, base weights, or both. */
  train: TrainSpec;
  initAdapter?: string;
  lora: LoraConfig;
  tasks: TaskSpec[];
  /** Env servers whose task lists the task names are checked against at start (none: no check). */
  envUrls: string[];
  envToken?: string;
  seed: number;
  groupSize: number;
  groupsPerUpdate: number;
  maxSteps: number;
  maxStaleness: number;
  maxInFlight: number;
  lr: number;
  schedule: (typeof SCHEDULES)[number];
  warmup: number;
  weightDecay: number;
  maxGradNorm: number;
  microBatch?: number;
  /** Longest training sequence a group may bring; default the model's context within one pass's token budget. */
  maxSequenceTokens?: number;
  maxFailedUpdates: number;
  grpo: GrpoOptions;
  curriculum: CurriculumOptions;
  episode: {
    max_turns: number;
    deadline_ms: number;
    sampling: { temperature: number; top_p: number; top_k: number; max_tokens: number; seed: number | null };
    context_tokens: number | null;
    observation_chars: number | null;
    observation_format: ObservationFormat;
    constrained: boolean;
    action_names: ActionName[] | null;
    bid_choices: boolean;
    text_choices: boolean;
  };
  connection: QueueConnection;
  run: string;
  outputDir: string;
  checkpointEvery: number;
  keepCheckpoints: number;
  /** Consumed groups kept in <outputDir>/trajectories.jsonl for the viewer (0: none). */
  keepTrajectories: number;
  /** Where the operator serves `gauntlet-agent view` (/curves links to it). */
  viewerUrl?: string;
  resume: boolean;
  /** /metrics, /curves and /curves.json answer without the API key. */
  publicMetrics: boolean;
  /** After the last update, serve the finished run until stopped. */
  stayUp: boolean;
  drainMs: number;
  /** Finished groups left in Redis; older ones are removed. */
  keepGroups: number;
  /** How long to wait for Redis at start. */
  redisTimeoutMs: number;
  host: string;
  port: number;
  vllmUrls: string[];
  apiKey?: string;
  publishDir: string;
  /** With base weights trained and --publish-dir given: each version is written there as a model folder. */
  modelVersionsDir?: string;
  probeTolerance: number;
  threads?: number;
  device: ExecutionProvider;
}

type GrpoValues = OptionValues<typeof GRPO_OPTIONS>;

const usage = (message: string, flag: string) => new UsageError(`grpo: ${message}`, flag);

/**
 * Reads the flags (the kit has merged a --config file, the environment and the defaults, and
 * checked each value's range) into settings; what spans several flags is checked here.
 */
export function parseGrpoSettings(context: { options: GrpoValues }): GrpoSettings {
  const values = context.options;
  const tasksGiven = values.task ?? [];
  if (tasksGiven.length === 0) throw usage('--task NAME[=WEIGHT] is required (e.g. --task miniwob.click-test)', 'task');
  /** A domain parser's error (a task spec, a LoRA target, a GRPO knob) as a usage error naming the flag. */
  const wrap = <T>(flag: string, f: () => T): T => {
    try {
      return f();
    } catch (error) {
      throw error instanceof UsageError ? error : usage((error as Error).message, flag);
    }
  };
  const tasks = wrap('task', () => parseTaskSpecs(tasksGiven));
  const rank = values.rank;
  const lora = wrap('targets', () =>
    makeLoraConfig({
      rank,
      alpha: values.alpha ?? rank,
      useRslora: values.rslora,
      ...(values.targets ? { targets: values.targets as LoraTarget[] } : {}),
    }),
  );
  const groupsPerUpdate = values['groups-per-update'];
  const maxStaleness = values['max-staleness'];
  // The in-process server reports constrained replies' log-probs without the grammar, as the
  // trainer scores them, so the correction compares like with like. A vLLM server applies the
  // grammar to what it reports: against the trainer's unmasked log-probs the correction would
  // weight (and with mask, zero) nearly every sample, so it is off by default there.
  const vllmUrls = values['vllm-url'] ?? [];
  const correction = (values['sampler-correction'] ??
    (values.constrained && vllmUrls.length > 0 ? 'off' : 'sequence')) as 'token' | 'sequence' | 'off';
  const maxCompletionLength = values['max-completion-length'];
  const grpo: GrpoOptions = {
    scaleRewards: values['scale-rewards'] as GrpoOptions['scaleRewards'],
    lossType: values['loss-type'] as GrpoOptions['lossType'],
    ratioLevel: values['ratio-level'] as GrpoOptions['ratioLevel'],
    epsilon: values.epsilon,
    ...(values['epsilon-high'] === undefined ? {} : { epsilonHigh: values['epsilon-high'] }),
    delta: values.delta ?? null,
    beta: values.beta,
    klMetric: values['kl-metric'],
    numIterations: values['num-iterations'],
    maskTruncatedCompletions: values['mask-truncated-completions'],
    ...(maxCompletionLength ? { maxCompletionLength } : {}),
    samplerCorrection:
      correction === 'off'
        ? null
        : {
            level: correction,
            mode: values['sampler-correction-mode'] as 'truncate' | 'mask',
            min: values['sampler-correction-min'],
            max: values['sampler-correction-max'],
          },
    logEntropy: !values['no-entropy'],
    ...stepCredit(values),
  };
  wrap('loss-type', () => resolveGrpoConfig(grpo));
  const run = wrap('run-name', () => checkRunName(values['run-name']));
  const outputDir = resolve(values['output-dir'] ?? `runs/${run}`);
  const connection = wrap('redis', () => queueConnection(values.redis, values.prefix));
  const viewerUrl = values['viewer-url'];
  if (viewerUrl !== undefined && !/^https?:\/\/[^/\s]+\S*$/.test(viewerUrl))
    throw usage(`--viewer-url ${JSON.stringify(viewerUrl)} must be an http(s) URL`, 'viewer-url');
  for (const url of vllmUrls)
    if (!/^https?:\/\/[^/\s]+/.test(url))
      throw usage(`--vllm-url ${JSON.stringify(url)} must be an http(s) URL`, 'vllm-url');
  const model = values.model;
  const initAdapter = values['init-adapter'];
  const train = wrap('train', () => parseTrainSpec(values.train ?? 'lora'));
  const trainsBase = trainsBaseWeights(train);
  if (trainsBase && vllmUrls.length)
    throw usage(
      `--train ${formatTrainSpec(train)} cannot publish to --vllm-url: a server loads trained base weights only by reloading a model folder (see docs/trainer.md); serve in process, with --publish-dir to write each version as a model folder`,
      'vllm-url',
    );
  if (initAdapter && !train.has('lora'))
    throw usage(
      `--init-adapter starts an adapter, but --train ${formatTrainSpec(train)} trains none; merge it first (export-adapter --merge) and pass that folder as --model`,
      'init-adapter',
    );
  const publishDirGiven = values['publish-dir'];
  const microBatch = values['micro-batch'];
  const maxSequenceTokens = values['max-sequence-tokens'];
  const threads = values.threads;
  const contextTokens = values['context-tokens'];
  const observationChars = values['observation-chars'];
  const apiKey = values['api-key'];
  // GAUNTLET_ENV_URLS is one comma-separated list; --env values are taken whole (URLs may hold commas).
  const envGiven = values.env ?? [];
  const envUrls = (envGiven.length ? envGiven : (process.env['GAUNTLET_ENV_URLS'] ?? '').split(','))
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of envUrls)
    if (!URL.canParse(url)) throw usage(`--env ${JSON.stringify(url)} is not a URL (e.g. ws://127.0.0.1:8000)`, 'env');
  const envToken = values['env-token'];
  if (values['bid-choices'] && !values.constrained)
    throw usage('--bid-choices narrows constrained decoding: give --constrained too', 'bid-choices');
  if (values['text-choices'] && !values.constrained)
    throw usage('--text-choices narrows constrained decoding: give --constrained too', 'text-choices');
  const actionNames = values['action-names'] ?? null;
  if (actionNames && !values.constrained)
    throw usage('--action-names narrows constrained decoding: give --constrained too', 'action-names');
  const unknown = actionNames?.filter((name) => !(ACTION_NAMES as readonly string[]).includes(name));
  if (unknown?.length)
    throw usage(`--action-names: ${unknown.join(', ')} is not an action (${ACTION_NAMES.join(', ')})`, 'action-names');
  const settings: GrpoSettings = {
    ...(model ? { modelDir: resolve(model) } : {}),
    train,
    ...(initAdapter ? { initAdapter: resolve(initAdapter) } : {}),
    lora,
    tasks,
    envUrls,
    ...(envToken ? { envToken } : {}),
    seed: values.seed,
    groupSize: values['group-size'],
    groupsPerUpdate,
    maxSteps: values['max-steps'],
    maxStaleness,
    maxInFlight: values['max-in-flight'] ?? groupsPerUpdate * (maxStaleness + 1),
    lr: values.lr,
    schedule: values['lr-schedule'] as (typeof SCHEDULES)[number],
    warmup: values.warmup,
    weightDecay: values['weight-decay'],
    maxGradNorm: values['max-grad-norm'],
    ...(microBatch ? { microBatch } : {}),
    ...(maxSequenceTokens ? { maxSequenceTokens } : {}),
    maxFailedUpdates: values['max-failed-updates'],
    grpo,
    curriculum: {
      ...DEFAULT_CURRICULUM,
      enabled: !values['no-curriculum'],
      window: values['curriculum-window'],
      floor: values['curriculum-floor'],
      startStep: values['start-step'],
    },
    episode: {
      max_turns: values['max-turns'],
      deadline_ms: values['deadline-ms'],
      sampling: {
        temperature: values.temperature,
        top_p: values['top-p'],
        top_k: values['top-k'],
        max_tokens: values['max-tokens'],
        seed: null,
      },
      context_tokens: contextTokens ?? null,
      observation_chars: observationChars ?? null,
      observation_format: values['observation-format'] as ObservationFormat,
      constrained: values.constrained,
      action_names: actionNames as ActionName[] | null,
      bid_choices: values['bid-choices'],
      text_choices: values['text-choices'],
    },
    connection,
    run,
    outputDir,
    checkpointEvery: values['checkpoint-every'],
    keepCheckpoints: values['keep-checkpoints'],
    keepTrajectories: values['keep-trajectories'],
    ...(viewerUrl ? { viewerUrl } : {}),
    resume: values.resume,
    publicMetrics: values['public-metrics'],
    stayUp: values['stay-up'],
    drainMs: values['drain-ms'],
    keepGroups: values['keep-groups'],
    redisTimeoutMs: values['redis-timeout-ms'],
    host: values.host,
    port: values.port,
    vllmUrls,
    ...(apiKey ? { apiKey } : {}),
    publishDir: resolve(publishDirGiven ?? `${outputDir}/adapters`),
    ...(trainsBase && publishDirGiven ? { modelVersionsDir: resolve(publishDirGiven) } : {}),
    probeTolerance: values['probe-tolerance'],
    ...(threads ? { threads } : {}),
    device: values.device as ExecutionProvider,
  };
  const maxTokens = settings.episode.sampling.max_tokens;
  if (contextTokens !== undefined && maxTokens >= contextTokens)
    throw usage(
      `--max-tokens (${maxTokens}) must be below --context-tokens (${contextTokens}): the prompt needs room too`,
      'max-tokens',
    );
  if (settings.maxInFlight < groupsPerUpdate)
    throw usage(
      `--max-in-flight (${settings.maxInFlight}) must be at least --groups-per-update (${groupsPerUpdate})`,
      'max-in-flight',
    );
  if (settings.schedule !== 'constant' && settings.maxSteps <= settings.warmup)
    throw usage(
      `--lr-schedule ${settings.schedule} needs --max-steps (${settings.maxSteps}) > --warmup (${settings.warmup})`,
      'max-steps',
    );
  return settings;
}

/** --advantage, --step-weight, --gamma: the last two only mean something with gigpo, so alone they are refused. */
function stepCredit(values: GrpoValues): Pick<GrpoOptions, 'advantage' | 'stepWeight' | 'gamma'> {
  const advantage = values.advantage as GrpoOptions['advantage'];
  const given = (['step-weight', 'gamma'] as const).filter((name) => values[name] !== undefined);
  if (advantage === 'grpo') {
    if (given.length) throw usage(`--${given[0]} weighs step-level credit: give --advantage gigpo too`, given[0]!);
    return { advantage };
  }
  if (values['ratio-level'] === 'sequence')
    throw usage(
      '--advantage gigpo gives each turn its own advantage: it needs --ratio-level token (one ratio per token)',
      'advantage',
    );
  return { advantage, stepWeight: values['step-weight'] ?? 1, gamma: values.gamma ?? 0.95 };
}
