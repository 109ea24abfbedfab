import { EpisodeSettings, RolloutId } from '@gauntlet/proto/rollout';
import {
  DEFAULT_PREFIX,
  DEFAULT_REDIS_URL,
  queueConnection,
  type QueueConnection,
} from '@gauntlet/proto/rollout/queue';
import { UsageError, type CommandContext, type OptionSpec, type Values } from './command.js';

/** How long a command waits for Redis at start, by default. */
export const DEFAULT_REDIS_TIMEOUT_MS = 5_000;

export const QUEUE_OPTIONS: Record<string, OptionSpec> = {
  redis: {
    type: 'string',
    valueName: 'URL',
    description: 'Redis holding the queues',
    defaultText: DEFAULT_REDIS_URL,
    env: 'REDIS_URL',
  },
  prefix: {
    type: 'string',
    valueName: 'NAME',
    description: 'Queue key prefix: workers, producers and the trainer of one deployment share it',
    defaultText: DEFAULT_PREFIX,
    env: 'GAUNTLET_QUEUE_PREFIX',
  },
  'redis-timeout-ms': {
    type: 'string',
    valueName: 'MS',
    description:
      'How long to wait for Redis at start before exiting 1 with the reason (later outages are waited out, one line each way)',
    defaultText: String(DEFAULT_REDIS_TIMEOUT_MS),
  },
};

/** How each episode is played: shared by submit (carried in the group's jobs) and eval. */
export const EPISODE_OPTIONS: Record<string, OptionSpec> = {
  'max-turns': {
    type: 'string',
    valueName: 'N',
    description: 'Turns before an episode ends as timeout',
    defaultText: '30',
  },
  'deadline-ms': {
    type: 'string',
    valueName: 'MS',
    description: 'Wall-clock budget of one episode',
    defaultText: '600000',
  },
  temperature: { type: 'string', valueName: 'T', description: 'Sampling temperature', defaultText: '1' },
  'top-p': { type: 'string', valueName: 'P', description: 'Nucleus sampling', defaultText: '1' },
  'top-k': { type: 'string', valueName: 'K', description: 'Top-k sampling (-1 = off)', defaultText: '-1' },
  'max-tokens': { type: 'string', valueName: 'N', description: 'Tokens per reply', defaultText: '64' },
  'sampling-seed': {
    type: 'string',
    valueName: 'N',
    description: 'Base sampling seed (episode i of a group and turn k add to it); absent: unseeded',
  },
  'context-tokens': {
    type: 'string',
    valueName: 'N',
    description: 'Prompt + reply tokens per turn; older exchanges are trimmed to fit',
    defaultText: 'no budget',
  },
  'observation-chars': {
    type: 'string',
    valueName: 'N',
    description: 'Characters per rendered observation (the AXTree is cut first)',
    defaultText: 'no budget',
  },
  'observation-format': {
    type: 'string',
    valueName: 'F',
    description: "axtree (BrowserGym's tree as the env sends it) or pruned (interactive elements and nearby text)",
    defaultText: 'axtree',
  },
  constrained: { type: 'boolean', description: 'Constrain replies to the action grammar (structured outputs)' },
  'action-names': {
    type: 'string',
    valueName: 'A,B,…',
    description: 'With --constrained: only these actions (comma-separated, e.g. click,fill)',
    defaultText: 'every action',
  },
  'bid-choices': {
    type: 'boolean',
    description: 'With --constrained: element arguments only name bids the current page shows',
  },
  model: { type: 'string', valueName: 'NAME', description: "The policy's base model as served", defaultText: 'tiny' },
  adapter: {
    type: 'string',
    valueName: 'NAME',
    description: 'LoRA adapter to sample from (the name the policy server serves it as)',
  },
  'policy-version': {
    type: 'string',
    valueName: 'N',
    description: 'Training step of the adapter, recorded on every turn',
  },
};

/**
 * The queues' connection, once Redis answers: a command that cannot reach it in --redis-timeout-ms
 * fails (exit 1, one line naming the URL). From then on, each outage prints one line when Redis goes
 * down and one when it is back. The caller closes `connection.watch` when done.
 */
export async function openConnection(context: CommandContext): Promise<QueueConnection> {
  const { values, io, signal } = context;
  const timeoutMs = intValue(values, 'redis-timeout-ms', DEFAULT_REDIS_TIMEOUT_MS, 1);
  const connection = connectionFrom(values);
  context.watches.add(connection.watch);
  try {
    await connection.watch.reachable(timeoutMs, signal);
  } catch (error) {
    await connection.watch.close();
    throw error;
  }
  connection.watch.onChange((_state, line) => io.err(line));
  return connection;
}

export function connectionFrom(values: Values): QueueConnection {
  return queueConnection(
    stringValue(values, 'redis') ?? DEFAULT_REDIS_URL,
    stringValue(values, 'prefix') ?? DEFAULT_PREFIX,
  );
}

export function stringValue(values: Values, name: string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** Every value of a repeatable flag, as given (no comma splitting). */
export function repeatedValue(values: Values, name: string): string[] {
  const raw = values[name];
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
}

/** Every value of a repeatable flag, split at commas. */
export function listValue(values: Values, name: string): string[] {
  const raw = values[name];
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  return items
    .flatMap((item) => item.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

export function intValue(values: Values, name: string, fallback: number, min = 0): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min} (got ${JSON.stringify(raw)})`);
  return Number(raw);
}

function optionalInt(values: Values, name: string, min = 0): number | undefined {
  return values[name] === undefined ? undefined : intValue(values, name, 0, min);
}

function numberValue(values: Values, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(value)) throw new UsageError(`--${name} must be a number (got ${JSON.stringify(raw)})`);
  return value;
}

/** `0-9,20,30-31` → [0…9, 20, 30, 31]. */
export function seedsValue(values: Values, name: string, fallback: string): number[] {
  const text = stringValue(values, name) ?? fallback;
  const seeds: number[] = [];
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) throw new UsageError(`--${name}: ${JSON.stringify(part)} is not a seed or a range like 0-9`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from || to - from > 100_000) throw new UsageError(`--${name}: the range ${part} is empty or too large`);
    for (let seed = from; seed <= to; seed++) seeds.push(seed);
  }
  if (seeds.length === 0) throw new UsageError(`--${name} lists no seed`);
  return seeds;
}

/** The episode settings the flags describe, checked against the job schema (its message names the field). */
export function episodeSettings(values: Values): EpisodeSettings {
  const candidate = {
    max_turns: optionalInt(values, 'max-turns', 1),
    deadline_ms: optionalInt(values, 'deadline-ms', 1),
    sampling: {
      temperature: numberValue(values, 'temperature'),
      top_p: numberValue(values, 'top-p'),
      top_k: values['top-k'] === undefined ? undefined : intValue(values, 'top-k', 0, -1),
      max_tokens: optionalInt(values, 'max-tokens', 1),
      seed: optionalInt(values, 'sampling-seed'),
    },
    context_tokens: optionalInt(values, 'context-tokens', 1),
    observation_chars: optionalInt(values, 'observation-chars', 1),
    observation_format: stringValue(values, 'observation-format'),
    constrained: values.constrained === true ? true : undefined,
    action_names: stringValue(values, 'action-names')
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    bid_choices: values['bid-choices'] === true ? true : undefined,
  };
  const parsed = EpisodeSettings.safeParse(JSON.parse(JSON.stringify(candidate)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`episode settings: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export function policyRef(
  values: Values,
  fallbackModel = 'tiny',
): { model: string; adapter: string | null; version: number | null } {
  return {
    model: stringValue(values, 'model') ?? fallbackModel,
    adapter: stringValue(values, 'adapter') ?? null,
    version: optionalInt(values, 'policy-version') ?? null,
  };
}

export function checkId(kind: string, id: string): string {
  if (!RolloutId.safeParse(id).success)
    throw new UsageError(`${kind} ${JSON.stringify(id)} must be letters, digits, "_", "-" or "." (no ":")`);
  return id;
}
