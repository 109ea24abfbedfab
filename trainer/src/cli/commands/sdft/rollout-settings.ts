import type { ObservationFormat } from '@gauntlet/proto';
import type { EpisodeSettings } from '@gauntlet/proto/rollout';
import { queueConnection, type QueueConnection } from '@gauntlet/proto/rollout/queue';
import { checkRunName } from '../../../rl/serving/versions.js';
import { UsageError, type OptionValues } from '../../command.js';
import type { SDFT_OPTIONS } from './options.js';
import { SDFT_ROLLOUT_OPTIONS } from './rollout-options.js';

/** The env's open-web task, which --url and --goal roll out on. */
export const WEB_TASK = 'web';

/** sdft --rollouts: what the workers play, where the queues are, how the loop admits groups. */
export interface SdftRolloutSettings {
  task: string;
  /** Reset options every group carries (`web`'s url and goal). */
  resetOptions: Record<string, unknown>;
  run: string;
  connection: QueueConnection;
  redisTimeoutMs: number;
  maxSteps: number;
  groupSize: number;
  groupsPerUpdate: number;
  maxStaleness: number;
  maxInFlight: number;
  episode: Omit<EpisodeSettings, 'reset_options' | 'policy_servers'>;
  drainMs: number;
  keepGroups: number;
  host: string;
  port: number;
}

const usage = (message: string, flag: string) => new UsageError(`sdft: ${message}`, flag);

/** The flags only --rollouts reads: without it they would be ignored, so they are refused. */
const ROLLOUT_ONLY = Object.keys(SDFT_ROLLOUT_OPTIONS).filter((name) => name !== 'rollouts');

/**
 * The rollout half of sdft's flags, checked across flags: what to roll out on (--task, or --url
 * with --goal), none of its flags without --rollouts (`given`: those the command line or config
 * set), no --resume with it, the student served from --model. Undefined without --rollouts.
 */
export function parseRolloutSettings(
  values: OptionValues<typeof SDFT_OPTIONS>,
  given: ReadonlySet<string> = new Set(),
): SdftRolloutSettings | undefined {
  const { url, goal, task } = values;
  if (!values.rollouts) {
    if (url !== undefined || goal !== undefined)
      throw usage(
        `--${url !== undefined ? 'url' : 'goal'} chooses what to roll out on: give --rollouts too`,
        url !== undefined ? 'url' : 'goal',
      );
    const stray = ROLLOUT_ONLY.find((name) => given.has(name));
    if (stray !== undefined)
      throw usage(
        `--${stray} only applies to --rollouts runs (the episodes the workers play): give --rollouts too, or drop it`,
        stray,
      );
    return undefined;
  }
  if (values.model === undefined)
    throw usage('--rollouts serves the student from the --model folder: give --model DIR', 'model');
  if (values.resume !== undefined)
    throw usage(
      '--resume cannot continue a --rollouts run exactly (the groups in flight and the queues are not in its checkpoints); start a new run with --init-adapter DIR/checkpoint-<step>',
      'resume',
    );
  if (url !== undefined && task !== undefined)
    throw usage(`--url rolls out on the open-web task ${WEB_TASK}; drop --task ${task}`, 'url');
  if (url === undefined && goal !== undefined) throw usage('--goal needs --url (the page it starts on)', 'url');
  if (url !== undefined && goal === undefined)
    throw usage('--url needs --goal (what the agent is asked to do)', 'goal');
  if (url === undefined && task === undefined)
    throw usage('--rollouts needs what to roll out on: --task NAME, or --url URL --goal TEXT', 'task');
  if (url !== undefined && !/^https?:\/\/[^/\s]+\S*$/.test(url))
    throw usage(`--url ${JSON.stringify(url)} must be an absolute http(s) URL`, 'url');
  const groupsPerUpdate = values['groups-per-update'];
  const maxStaleness = values['max-staleness'];
  const maxInFlight = values['max-in-flight'] ?? groupsPerUpdate * (maxStaleness + 1);
  if (maxInFlight < groupsPerUpdate)
    throw usage(
      `--max-in-flight (${maxInFlight}) must be at least --groups-per-update (${groupsPerUpdate})`,
      'max-in-flight',
    );
  const wrap = <T>(flag: string, f: () => T): T => {
    try {
      return f();
    } catch (error) {
      throw usage((error as Error).message, flag);
    }
  };
  const run = wrap('run-name', () => checkRunName(values['run-name']));
  return {
    task: url === undefined ? task! : WEB_TASK,
    resetOptions: url === undefined ? {} : { url, goal },
    run,
    maxSteps: values['max-steps'],
    groupSize: values['group-size'],
    groupsPerUpdate,
    maxStaleness,
    maxInFlight,
    episode: {
      max_turns: values['max-turns'],
      deadline_ms: values['deadline-ms'],
      sampling: {
        temperature: values.temperature,
        top_p: 1,
        top_k: -1,
        max_tokens: values['max-new-tokens'],
        seed: null,
      },
      context_tokens: null,
      observation_chars: null,
      observation_format: values['observation-format'] as ObservationFormat,
      constrained: false,
      action_names: null,
      bid_choices: false,
      text_choices: false,
    },
    drainMs: values['drain-ms'],
    keepGroups: values['keep-groups'],
    host: values.host,
    port: values.port,
    redisTimeoutMs: values['redis-timeout-ms'],
    // Last: the connection is a client of its own, made once every flag is known good.
    connection: wrap('redis', () => queueConnection(values.redis, values.prefix)),
  };
}
