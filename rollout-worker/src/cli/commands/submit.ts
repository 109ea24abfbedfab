import { GroupJob, isRetiredVersionReason } from '@gauntlet/proto/rollout';
import { DEFAULT_RETRY_POLICY, GroupSubmitter, GroupTracker } from '@gauntlet/proto/rollout/queue';
import { checkTaskNames, parseSeeds } from '@gauntlet/proto/cli';
import { defineCommand, UsageError } from '../command.js';
import { checkId, EPISODE_OPTIONS, episodeSettings, openConnection, policyRef, QUEUE_OPTIONS } from '../options.js';

export const submitCommand = defineCommand({
  name: 'submit',
  summary: 'Enqueue GRPO groups (tasks × seeds, G episodes each), as the trainer does',
  description: [
    'Adds one group per task and seed: a flow of --group-size episode jobs that any worker may play,',
    "and a parent that hands the finished TrajectoryGroup to the trainer's queue. The group id is",
    "<id-prefix>-<task>-<seed> (':' and '/' of a task name become '.', e.g. g-gauntlet.timer-0 for",
    'gauntlet:timer); a group id already in Redis (waiting, running, done or dropped) is',
    'skipped, so running the same submit twice plays nothing twice. --max-in-flight holds further groups',
    'back while that many are unfinished (backpressure). --wait follows the groups to the end, prints',
    'progress, and prints a JSON summary; the exit code is 1 when any group was dropped or stale (its',
    'policy version retired by the server before it was played). With --env, the',
    "--task names are first checked against those env servers' task lists (exit 2 on an unknown one).",
  ].join('\n'),
  options: {
    ...QUEUE_OPTIONS,
    task: {
      kind: 'list',
      valueName: 'NAME',
      help: 'Task to play (e.g. click-test, gauntlet)',
      repeatable: true,
    },
    seeds: {
      kind: 'string',
      default: '0',
      valueName: 'LIST',
      help: 'Task seeds: numbers and ranges (0-9,20)',
    },
    'group-size': { kind: 'integer', min: 1, default: 8, valueName: 'G', help: 'Episodes per group' },
    'id-prefix': {
      kind: 'string',
      default: 'g',
      valueName: 'TEXT',
      help: 'Start of every group id (e.g. the training step: step12)',
    },
    'max-in-flight': {
      kind: 'integer',
      min: 0,
      default: 0,
      valueName: 'N',
      help: 'Most groups unfinished at once before submit waits (0 = no cap)',
    },
    attempts: {
      kind: 'integer',
      min: 1,
      default: DEFAULT_RETRY_POLICY.attempts,
      valueName: 'N',
      help: 'Tries per episode before its group is dropped',
    },
    'backoff-ms': {
      kind: 'integer',
      min: 0,
      default: DEFAULT_RETRY_POLICY.backoffMs,
      valueName: 'MS',
      help: 'First retry delay (doubles per retry)',
    },
    env: {
      kind: 'list',
      valueName: 'URL',
      help: 'Env servers of the workers (ws://, http://): --task names are checked against their task lists',
      repeatable: true,
      env: 'GAUNTLET_ENV_URLS',
    },
    'env-token': {
      kind: 'string',
      valueName: 'TOKEN',
      help: 'Bearer token of the env servers',
      env: 'GAUNTLET_TOKEN',
    },
    wait: { kind: 'boolean', help: 'Wait for every group to complete or be dropped; print a JSON summary' },
    ...EPISODE_OPTIONS,
  },
  examples: [
    'gauntlet-worker submit --task click-test --seeds 0-15 --group-size 8 --adapter grpo --policy-version 12 --id-prefix step12',
    'gauntlet-worker submit --task gauntlet --seeds 0-99 --max-in-flight 16 --wait',
  ],
  async run(context) {
    const { values, io, signal } = context;
    const tasks = values.task ?? [];
    if (tasks.length === 0) throw new UsageError('--task is required (e.g. --task click-test)', 'task');
    const seeds = parseSeeds(values.seeds);
    const size = values['group-size'];
    const prefix = checkId('--id-prefix', values['id-prefix']);
    const cap = values['max-in-flight'];
    const settings = episodeSettings(values, tasks);
    const policy = policyRef(values);
    const envUrls = values.env ?? [];
    if (envUrls.length > 0) {
      const check = await checkTaskNames(tasks, envUrls, { token: values['env-token'] });
      if (!check.checked) io.err(`submit: task names not checked (${check.reason})`);
    }
    const groups = tasks.flatMap((task) =>
      seeds.map((seed) =>
        GroupJob.parse({
          group_id: checkId('group id', `${prefix}-${idPart(task)}-${seed}`),
          task,
          seed,
          size,
          policy,
          settings,
          submitted_at: new Date().toISOString(),
        }),
      ),
    );
    // The id is what the wait tracks: two groups sharing one would wait forever for the second.
    const twice = groups.find((g, i) => groups.findIndex((h) => h.group_id === g.group_id) !== i);
    if (twice)
      throw new UsageError(
        `--task: two groups would share the id ${twice.group_id} (a task given twice, or names that differ only in ':' and '/' against '.')`,
        'task',
      );
    const retry = {
      ...DEFAULT_RETRY_POLICY,
      attempts: values.attempts,
      backoffMs: values['backoff-ms'],
    };
    const connection = await openConnection(context);
    const submitter = new GroupSubmitter(connection, retry);
    const tracker = new GroupTracker(connection);
    // A dropped group whose policy version was retired (its run moved on) is stale, not a failure.
    const fates = new Map<string, 'completed' | 'dropped' | 'stale'>();
    const wanted = new Set(groups.map((g) => g.group_id));
    let existing = 0;
    const started = performance.now();
    const progress = () => {
      const done = [...fates.values()];
      io.err(
        `groups ${done.length}/${groups.length} finished: ${done.filter((f) => f === 'completed').length} completed, ${done.filter((f) => f === 'dropped').length} dropped${done.includes('stale') ? `, ${done.filter((f) => f === 'stale').length} stale (policy version retired)` : ''} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    };
    const finished = new Promise<void>((resolve) => {
      const check = () => fates.size === groups.length && resolve();
      const settle = (id: string, fate: 'completed' | 'dropped' | 'stale') => {
        if (fates.has(id)) return;
        fates.set(id, fate);
        if (values.wait) progress();
        check();
      };
      tracker.onFinished((id, fate) => {
        if (!wanted.has(id) || fates.has(id)) return;
        if (fate === 'completed') return settle(id, fate);
        void tracker.dropReason(id).then(
          (reason) => settle(id, isRetiredVersionReason(reason) ? 'stale' : 'dropped'),
          () => settle(id, 'dropped'),
        );
      });
    });
    try {
      await tracker.ready();
      for (const group of groups) {
        if (cap > 0) await tracker.belowCap(cap, signal);
        if ((await submitter.submit(group)) === 'exists') existing += 1;
      }
      io.err(
        `submitted ${groups.length - existing} groups of ${size} (${existing} already known: not replayed) to ${connection.prefix}`,
      );
      if (!values.wait) return 0;
      // Groups that finished before we listened (or earlier runs') are read from Redis.
      await tracker.replay(wanted);
      await Promise.race([
        finished,
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ]);
      const completed = [...fates.values()].filter((f) => f === 'completed').length;
      const ids = (fate: string) => [...fates].filter(([, f]) => f === fate).map(([id]) => id);
      io.out(
        JSON.stringify({
          groups: groups.length,
          newly_submitted: groups.length - existing,
          completed,
          dropped: groups.length - completed - ids('stale').length,
          dropped_ids: ids('dropped'),
          stale: ids('stale').length,
          stale_ids: ids('stale'),
          wall_s: Math.round(performance.now() - started) / 1000,
        }),
      );
      return completed === groups.length ? 0 : 1;
    } finally {
      await submitter.close();
      await tracker.close();
      await connection.watch.close();
    }
  },
});

/** A task name inside a group id: job ids may not hold ':' or '/', which Gauntlet types (`gauntlet:timer`) and BrowserGym names have. */
function idPart(task: string): string {
  return task.replace(/[:/]/g, '.');
}
