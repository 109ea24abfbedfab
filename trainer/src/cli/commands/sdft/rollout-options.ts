import { defineOptions } from '../../command.js';
import { flag } from '../grpo/option-rows.js';
import { RUN_OPTIONS as run } from '../grpo/run-options.js';
import { TRAINING_OPTIONS as training } from '../grpo/training-options.js';

/** sdft --rollouts: the student samples on-policy through the rollout tier, with grpo's rows where they mean the same. */
export const SDFT_ROLLOUT_OPTIONS = defineOptions({
  rollouts: flag(
    "Sample the student on-policy: episodes of --task (or --url/--goal) played by the rollout workers with the student's current adapter, published as <run>@v<N> by this process's policy server",
  ),
  url: {
    kind: 'string',
    valueName: 'URL',
    help: "With --rollouts: roll out on the env's open-web task `web` from this http(s) page (reset option url)",
  },
  goal: { kind: 'string', valueName: 'TEXT', help: 'With --url: the goal asked (reset option goal)' },
  'max-steps': { ...training['max-steps'], default: 20, help: 'With --rollouts: updates to run' },
  'group-size': {
    ...training['group-size'],
    min: 1,
    default: 2,
    help: 'With --rollouts: episodes per group (same task and seed)',
  },
  'groups-per-update': { ...training['groups-per-update'], default: 2 },
  'max-staleness': training['max-staleness'],
  'max-in-flight': training['max-in-flight'],
  'max-turns': run['max-turns'],
  'deadline-ms': run['deadline-ms'],
  'observation-format': run['observation-format'],
  redis: run.redis,
  prefix: run.prefix,
  'redis-timeout-ms': run['redis-timeout-ms'],
  'run-name': { ...run['run-name'], default: 'sdft' },
  'drain-ms': run['drain-ms'],
  'keep-groups': run['keep-groups'],
  host: { ...run.host, help: 'With --rollouts: address of the policy server the workers sample from' },
  port: { ...run.port, help: 'With --rollouts: port of the policy server the workers sample from (0 = any free port)' },
});
