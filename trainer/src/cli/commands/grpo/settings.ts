import { resolve } from 'node:path';
import { ACTION_NAMES, type ActionName } from '@gauntlet/proto/agent';
import { OBSERVATION_FORMATS, type ObservationFormat } from '@gauntlet/proto';
import {
  DEFAULT_PREFIX,
  DEFAULT_REDIS_URL,
  queueConnection,
  type QueueConnection,
} from '@gauntlet/proto/rollout/queue';
import type { ExecutionProvider } from '../../../engine/runtime.js';
import { makeLoraConfig, type LoraConfig, type LoraTarget } from '../../../lora/config.js';
import { DEFAULT_CURRICULUM, type CurriculumOptions } from '../../../rl/curriculum/curriculum.js';
import { parseTaskSpecs, type TaskSpec } from '../../../rl/curriculum/task-spec.js';
import { DEFAULT_KEEP_GROUPS } from '../../../rl/loop/retention.js';
import { checkRunName } from '../../../rl/serving/versions.js';
import { resolveGrpoConfig, type GrpoOptions } from '../../../train/grpo/index.js';
import { UsageError, type CommandContext } from '../../command.js';
import {
  choiceOption,
  integerOption,
  listOption,
  multipleOption,
  numberOption,
  optionalIntegerOption,
  stringOption,
} from '../../options.js';
import { formatTrainSpec, parseTrainSpec, trainsBaseWeights, type TrainSpec } from '../../../train/trainable.js';
import { DEVICES, SCHEDULES } from '../sft/settings.js';

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

const usage = (message: string) => new UsageError(`grpo: ${message}`);

/** Reads the flags (already merged with a --config file) into settings; every mistake is a usage error. */
export function parseGrpoSettings(context: Pick<CommandContext, 'options'>): GrpoSettings {
  const int = (name: string, fallback: number, min = 1) => integerOption(context, name, fallback, min);
  const num = (name: string, fallback: number, min = 0, inclusive = true) =>
    numberOption(context, name, fallback, min, inclusive);
  const tasksGiven = multipleOption(context, 'task');
  if (tasksGiven.length === 0) throw usage('--task NAME[=WEIGHT] is required (e.g. --task miniwob.click-test)');
  const wrap = <T>(f: () => T): T => {
    try {
      return f();
    } catch (error) {
      throw error instanceof UsageError ? error : usage((error as Error).message);
    }
  };
  const tasks = wrap(() => parseTaskSpecs(tasksGiven));
  const rank = int('rank', 8);
  const targets = listOption(context, 'targets');
  const lora = wrap(() =>
    makeLoraConfig({
      rank,
      alpha: num('alpha', rank, 0, false),
      useRslora: context.options['rslora'] === true,
      ...(targets ? { targets: targets as LoraTarget[] } : {}),
    }),
  );
  const groupsPerUpdate = int('groups-per-update', 4);
  const maxStaleness = int('max-staleness', 1, 0);
  // The in-process server reports constrained replies' log-probs without the grammar, as the
  // trainer scores them, so the correction compares like with like. A vLLM server applies the
  // grammar to what it reports: against the trainer's unmasked log-probs the correction would
  // weight (and with mask, zero) nearly every sample, so it is off by default there.
  const vllmUrls = multipleOption(context, 'vllm-url');
  const correction = choiceOption(
    context,
    'sampler-correction',
    ['token', 'sequence', 'off'] as const,
    context.options['constrained'] === true && vllmUrls.length > 0 ? 'off' : 'sequence',
  );
  const delta = stringOption(context, 'delta');
  const maxCompletionLength = optionalIntegerOption(context, 'max-completion-length');
  const grpo: GrpoOptions = {
    scaleRewards: choiceOption(context, 'scale-rewards', ['group', 'batch', 'none'] as const, 'group'),
    lossType: choiceOption(context, 'loss-type', ['grpo', 'bnpo', 'dr_grpo', 'dapo'] as const, 'dapo'),
    ratioLevel: choiceOption(context, 'ratio-level', ['token', 'sequence'] as const, 'token'),
    epsilon: num('epsilon', 0.2),
    ...(context.options['epsilon-high'] === undefined ? {} : { epsilonHigh: num('epsilon-high', 0.2) }),
    delta: delta === undefined ? null : num('delta', 0, 1, false),
    beta: num('beta', 0),
    klMetric: context.options['kl-metric'] === true,
    numIterations: int('num-iterations', 1),
    maskTruncatedCompletions: context.options['mask-truncated-completions'] === true,
    ...(maxCompletionLength ? { maxCompletionLength } : {}),
    samplerCorrection:
      correction === 'off'
        ? null
        : {
            level: correction,
            mode: choiceOption(context, 'sampler-correction-mode', ['truncate', 'mask'] as const, 'mask'),
            min: num('sampler-correction-min', 0),
            max: num('sampler-correction-max', 3),
          },
    logEntropy: context.options['no-entropy'] !== true,
    ...stepCredit(context, num),
  };
  wrap(() => resolveGrpoConfig(grpo));
  const run = wrap(() => checkRunName(stringOption(context, 'run-name') ?? 'grpo'));
  const outputDir = resolve(stringOption(context, 'output-dir') ?? `runs/${run}`);
  const connection = wrap(() =>
    queueConnection(
      stringOption(context, 'redis') ?? process.env['REDIS_URL'] ?? DEFAULT_REDIS_URL,
      stringOption(context, 'prefix') ?? process.env['GAUNTLET_QUEUE_PREFIX'] ?? DEFAULT_PREFIX,
    ),
  );
  const viewerUrl = stringOption(context, 'viewer-url');
  if (viewerUrl !== undefined && !/^https?:\/\/[^/\s]+\S*$/.test(viewerUrl))
    throw usage(`--viewer-url ${JSON.stringify(viewerUrl)} must be an http(s) URL`);
  for (const url of vllmUrls)
    if (!/^https?:\/\/[^/\s]+/.test(url)) throw usage(`--vllm-url ${JSON.stringify(url)} must be an http(s) URL`);
  const model = stringOption(context, 'model');
  const initAdapter = stringOption(context, 'init-adapter');
  const train = wrap(() => parseTrainSpec(stringOption(context, 'train') ?? 'lora'));
  const trainsBase = trainsBaseWeights(train);
  if (trainsBase && vllmUrls.length)
    throw usage(
      `--train ${formatTrainSpec(train)} cannot publish to --vllm-url: a server loads trained base weights only by reloading a model folder (see docs/trainer.md); serve in process, with --publish-dir to write each version as a model folder`,
    );
  if (initAdapter && !train.has('lora'))
    throw usage(
      `--init-adapter starts an adapter, but --train ${formatTrainSpec(train)} trains none; merge it first (export-adapter --merge) and pass that folder as --model`,
    );
  const publishDirGiven = stringOption(context, 'publish-dir');
  const microBatch = optionalIntegerOption(context, 'micro-batch');
  const maxSequenceTokens = optionalIntegerOption(context, 'max-sequence-tokens', 2);
  const threads = optionalIntegerOption(context, 'threads');
  const contextTokens = optionalIntegerOption(context, 'context-tokens', 64);
  const observationChars = optionalIntegerOption(context, 'observation-chars', 256);
  const apiKey = stringOption(context, 'api-key') ?? process.env['VLLM_API_KEY'];
  const envGiven = multipleOption(context, 'env');
  const envUrls = (envGiven.length ? envGiven : (process.env['GAUNTLET_ENV_URLS'] ?? '').split(','))
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of envUrls)
    if (!URL.canParse(url)) throw usage(`--env ${JSON.stringify(url)} is not a URL (e.g. ws://127.0.0.1:8000)`);
  const envToken = stringOption(context, 'env-token') ?? process.env['GAUNTLET_TOKEN'];
  if (context.options['bid-choices'] === true && context.options['constrained'] !== true)
    throw usage('--bid-choices narrows constrained decoding: give --constrained too');
  const actionNames = listOption(context, 'action-names') ?? null;
  if (actionNames && context.options['constrained'] !== true)
    throw usage('--action-names narrows constrained decoding: give --constrained too');
  const unknown = actionNames?.filter((name) => !(ACTION_NAMES as readonly string[]).includes(name));
  if (unknown?.length)
    throw usage(`--action-names: ${unknown.join(', ')} is not an action (${ACTION_NAMES.join(', ')})`);
  const settings: GrpoSettings = {
    ...(model ? { modelDir: resolve(model) } : {}),
    train,
    ...(initAdapter ? { initAdapter: resolve(initAdapter) } : {}),
    lora,
    tasks,
    envUrls,
    ...(envToken ? { envToken } : {}),
    seed: int('seed', 0, 0),
    groupSize: int('group-size', 8, 2),
    groupsPerUpdate,
    maxSteps: int('max-steps', 100),
    maxStaleness,
    maxInFlight: int('max-in-flight', groupsPerUpdate * (maxStaleness + 1)),
    lr: num('lr', 1e-4, 0, false),
    schedule: choiceOption(context, 'lr-schedule', SCHEDULES, 'constant'),
    warmup: int('warmup', 0, 0),
    weightDecay: num('weight-decay', 0),
    maxGradNorm: num('max-grad-norm', 1, 0, false),
    ...(microBatch ? { microBatch } : {}),
    ...(maxSequenceTokens ? { maxSequenceTokens } : {}),
    maxFailedUpdates: int('max-failed-updates', 3),
    grpo,
    curriculum: {
      ...DEFAULT_CURRICULUM,
      enabled: context.options['no-curriculum'] !== true,
      window: int('curriculum-window', DEFAULT_CURRICULUM.window),
      floor: num('curriculum-floor', DEFAULT_CURRICULUM.floor),
      startStep: int('start-step', 0, 0),
    },
    episode: {
      max_turns: int('max-turns', 10),
      deadline_ms: int('deadline-ms', 120_000, 1_000),
      sampling: {
        temperature: num('temperature', 1, 0, false),
        top_p: num('top-p', 1, 0, false),
        top_k: int('top-k', -1, -1),
        max_tokens: int('max-tokens', 32),
        seed: null,
      },
      context_tokens: contextTokens ?? null,
      observation_chars: observationChars ?? null,
      observation_format: choiceOption(context, 'observation-format', OBSERVATION_FORMATS, 'axtree'),
      constrained: context.options['constrained'] === true,
      action_names: actionNames as ActionName[] | null,
      bid_choices: context.options['bid-choices'] === true,
    },
    connection,
    run,
    outputDir,
    checkpointEvery: int('checkpoint-every', 10),
    keepCheckpoints: int('keep-checkpoints', 3),
    keepTrajectories: int('keep-trajectories', 4, 0),
    ...(viewerUrl ? { viewerUrl } : {}),
    resume: context.options['resume'] === true,
    publicMetrics: context.options['public-metrics'] === true,
    stayUp: context.options['stay-up'] === true,
    drainMs: int('drain-ms', 60_000, 0),
    keepGroups: int('keep-groups', DEFAULT_KEEP_GROUPS, 0),
    redisTimeoutMs: int('redis-timeout-ms', 5_000, 1),
    host: stringOption(context, 'host') ?? '127.0.0.1',
    port: int('port', 8001, 0),
    vllmUrls,
    ...(apiKey ? { apiKey } : {}),
    publishDir: resolve(publishDirGiven ?? `${outputDir}/adapters`),
    ...(trainsBase && publishDirGiven ? { modelVersionsDir: resolve(publishDirGiven) } : {}),
    probeTolerance: num('probe-tolerance', 1e-3, 0, false),
    ...(threads ? { threads } : {}),
    device: choiceOption(context, 'device', DEVICES, 'cpu'),
  };
  const maxTokens = settings.episode.sampling.max_tokens;
  if (contextTokens !== undefined && maxTokens >= contextTokens)
    throw usage(
      `--max-tokens (${maxTokens}) must be below --context-tokens (${contextTokens}): the prompt needs room too`,
    );
  if (settings.maxInFlight < groupsPerUpdate)
    throw usage(`--max-in-flight (${settings.maxInFlight}) must be at least --groups-per-update (${groupsPerUpdate})`);
  if (settings.schedule !== 'constant' && settings.maxSteps <= settings.warmup)
    throw usage(
      `--lr-schedule ${settings.schedule} needs --max-steps (${settings.maxSteps}) > --warmup (${settings.warmup})`,
    );
  return settings;
}

/** --advantage, --step-weight, --gamma: the last two only mean something with gigpo, so alone they are refused. */
function stepCredit(
  context: Pick<CommandContext, 'options'>,
  num: (name: string, fallback: number) => number,
): Pick<GrpoOptions, 'advantage' | 'stepWeight' | 'gamma'> {
  const advantage = choiceOption(context, 'advantage', ['grpo', 'gigpo'] as const, 'grpo');
  const given = ['step-weight', 'gamma'].filter((name) => context.options[name] !== undefined);
  if (advantage === 'grpo') {
    if (given.length) throw usage(`--${given[0]} weighs step-level credit: give --advantage gigpo too`);
    return { advantage };
  }
  const gamma = num('gamma', 0.95);
  if (gamma > 1) throw usage(`--gamma must be between 0 and 1; got ${gamma}`);
  if (context.options['ratio-level'] === 'sequence')
    throw usage(
      '--advantage gigpo gives each turn its own advantage: it needs --ratio-level token (one ratio per token)',
    );
  return { advantage, stepWeight: num('step-weight', 1), gamma };
}
