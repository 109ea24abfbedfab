import { GAUNTLET_STEPS } from '@gauntlet/proto';
import { EpisodeSettings, RolloutId } from '@gauntlet/proto/rollout';
import {
  DEFAULT_PREFIX,
  DEFAULT_REDIS_URL,
  queueConnection,
  type QueueConnection,
} from '@gauntlet/proto/rollout/queue';
import { defineOptions, UsageError, type CommandIo, type OptionValues } from '@gauntlet/proto/cli';
import type { CommandContext } from './command.js';

/** How long a command waits for Redis at start, by default. */
export const DEFAULT_REDIS_TIMEOUT_MS = 5_000;

export const QUEUE_OPTIONS = defineOptions({
  redis: {
    kind: 'string',
    default: DEFAULT_REDIS_URL,
    valueName: 'URL',
    help: 'Redis holding the queues',
    env: 'REDIS_URL',
  },
  prefix: {
    kind: 'string',
    default: DEFAULT_PREFIX,
    valueName: 'NAME',
    help: 'Queue key prefix: workers, producers and the trainer of one deployment share it',
    env: 'GAUNTLET_QUEUE_PREFIX',
  },
  'redis-timeout-ms': {
    kind: 'integer',
    min: 1,
    default: DEFAULT_REDIS_TIMEOUT_MS,
    valueName: 'MS',
    help: 'How long to wait for Redis at start before exiting 1 with the reason (later outages are waited out, one line each way)',
  },
});

/** How each episode is played: shared by submit (carried in the group's jobs) and eval. */
export const EPISODE_OPTIONS = defineOptions({
  'start-step': {
    kind: 'integer',
    min: 1,
    max: GAUNTLET_STEPS,
    valueName: 'N',
    help: 'Start every episode of the gauntlet task at this step (the env plays the steps before it); only with --task gauntlet',
  },
  'max-turns': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Turns before an episode ends as timeout',
    defaultText: '30',
  },
  'deadline-ms': {
    kind: 'integer',
    min: 1,
    valueName: 'MS',
    help: 'Wall-clock budget of one episode',
    defaultText: '600000',
  },
  temperature: { kind: 'number', valueName: 'T', help: 'Sampling temperature', defaultText: '1' },
  'top-p': { kind: 'number', valueName: 'P', help: 'Nucleus sampling', defaultText: '1' },
  'top-k': { kind: 'integer', min: -1, valueName: 'K', help: 'Top-k sampling (-1 = off)', defaultText: '-1' },
  'max-tokens': { kind: 'integer', min: 1, valueName: 'N', help: 'Tokens per reply', defaultText: '64' },
  'sampling-seed': {
    kind: 'integer',
    min: 0,
    valueName: 'N',
    help: 'Base sampling seed (episode i of a group and turn k add to it); absent: unseeded',
  },
  'context-tokens': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Prompt + reply tokens per turn; older exchanges are trimmed to fit',
    defaultText: 'no budget',
  },
  'observation-chars': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Characters per rendered observation (the AXTree is cut first)',
    defaultText: 'no budget',
  },
  'observation-format': {
    kind: 'string',
    valueName: 'F',
    help: "axtree (BrowserGym's tree as the env sends it) or pruned (interactive elements and nearby text)",
    defaultText: 'axtree',
  },
  constrained: { kind: 'boolean', help: 'Constrain replies to the action grammar (structured outputs)' },
  'action-names': {
    kind: 'list',
    valueName: 'A,B,…',
    help: 'With --constrained: only these actions (comma-separated, e.g. click,fill)',
    defaultText: 'every action',
  },
  'bid-choices': {
    kind: 'boolean',
    help: 'With --constrained: element arguments only name bids the current page shows',
  },
  'text-choices': {
    kind: 'boolean',
    help: "With --constrained: fill and select_option take only one of the goal's double-quoted values",
  },
  model: { kind: 'string', valueName: 'NAME', help: "The policy's base model as served", defaultText: 'tiny' },
  adapter: {
    kind: 'string',
    valueName: 'NAME',
    help: 'LoRA adapter to sample from (the name the policy server serves it as)',
  },
  'policy-version': {
    kind: 'integer',
    min: 0,
    valueName: 'N',
    help: 'Training step of the adapter, recorded on every turn',
  },
});

type QueueValues = OptionValues<typeof QUEUE_OPTIONS>;
type EpisodeValues = OptionValues<typeof EPISODE_OPTIONS>;

/**
 * The queues' connection, once Redis answers: a command that cannot reach it in --redis-timeout-ms
 * fails (exit 1, one line naming the URL). From then on, each outage prints one line when Redis goes
 * down and one when it is back. The caller closes `connection.watch` when done.
 */
export async function openConnection(
  context: Pick<CommandContext<typeof QUEUE_OPTIONS>, 'values' | 'signal' | 'watches'> & { io: CommandIo },
): Promise<QueueConnection> {
  const { values, io, signal } = context;
  const connection = connectionFrom(values);
  context.watches.add(connection.watch);
  try {
    await connection.watch.reachable(values['redis-timeout-ms'], signal);
  } catch (error) {
    await connection.watch.close();
    throw error;
  }
  connection.watch.onChange((_state, line) => io.err(line));
  return connection;
}

export function connectionFrom(values: Pick<QueueValues, 'redis' | 'prefix'>): QueueConnection {
  return queueConnection(values.redis, values.prefix);
}

/**
 * The episode settings the flags describe for `tasks`, checked against the job schema (its
 * message names the field). --start-step is the full Gauntlet's reset option, refused elsewhere.
 */
export function episodeSettings(values: EpisodeValues, tasks: readonly string[]): EpisodeSettings {
  const startStep = values['start-step'];
  const other = tasks.find((task) => task !== 'gauntlet');
  if (startStep !== undefined && other !== undefined)
    throw new UsageError(
      `--start-step applies to the full "gauntlet" task only (not ${JSON.stringify(other)}); play it on its own --task`,
      'start-step',
    );
  const candidate = {
    max_turns: values['max-turns'],
    deadline_ms: values['deadline-ms'],
    sampling: {
      temperature: values.temperature,
      top_p: values['top-p'],
      top_k: values['top-k'],
      max_tokens: values['max-tokens'],
      seed: values['sampling-seed'],
    },
    context_tokens: values['context-tokens'],
    observation_chars: values['observation-chars'],
    observation_format: values['observation-format'],
    constrained: values.constrained ? true : undefined,
    action_names: values['action-names'],
    bid_choices: values['bid-choices'] ? true : undefined,
    text_choices: values['text-choices'] ? true : undefined,
    reset_options: startStep === undefined ? undefined : { start_step: startStep },
  };
  const parsed = EpisodeSettings.safeParse(JSON.parse(JSON.stringify(candidate)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`episode settings: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export function policyRef(
  values: Pick<EpisodeValues, 'model' | 'adapter' | 'policy-version'>,
  fallbackModel = 'tiny',
): { model: string; adapter: string | null; version: number | null } {
  return {
    model: values.model ?? fallbackModel,
    adapter: values.adapter ?? null,
    version: values['policy-version'] ?? null,
  };
}

export function checkId(kind: string, id: string): string {
  if (!RolloutId.safeParse(id).success)
    throw new UsageError(
      `${kind} ${JSON.stringify(id)} must be letters, digits, "_", "-" or "." (no ":")`,
      kind.startsWith('--') ? kind.slice(2) : undefined,
    );
  return id;
}
