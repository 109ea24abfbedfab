import { QUEUES } from '@gauntlet/proto/rollout';
import { rolloutStatus, type RolloutStatus } from '../../queue/status.js';
import { defineCommand } from '../command.js';
import { openConnection, QUEUE_OPTIONS } from '../options.js';
import { table } from '@gauntlet/proto/cli';

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'Show queue depths, connected workers, and groups done, dropped or stale',
  description: [
    "Reads one deployment's queues (same --redis and --prefix as the workers): jobs per state in the",
    'groups, episodes and trainer queues, the workers connected to the episodes queue, and how many',
    'groups completed, were dropped, or went stale (their policy version was retired while they waited;',
    'BullMQ lists both as failed jobs, kept until they expire).',
  ].join('\n'),
  options: { ...QUEUE_OPTIONS, json: { kind: 'boolean', help: 'Print JSON instead of tables' } },
  examples: ['gauntlet-worker status', 'gauntlet-worker status --redis redis://queue:6379 --json'],
  async run(context) {
    const { values, io } = context;
    const connection = await openConnection(context);
    let status: RolloutStatus;
    try {
      status = await rolloutStatus(connection);
    } finally {
      await connection.watch.close();
    }
    if (values.json) {
      io.out(JSON.stringify(status, null, 2));
      return 0;
    }
    const rows = Object.entries(status.queues).map(([key, d]) => [
      QUEUES[key as keyof typeof QUEUES],
      d.waiting + d.prioritized,
      d.delayed,
      d.active,
      d['waiting-children'],
      d.completed,
      d.failed,
    ]);
    io.out(table(['queue', 'waiting', 'delayed', 'active', 'waiting-children', 'completed', 'failed'], rows));
    io.out('');
    io.out(
      `groups: ${status.groups.in_flight} in flight, ${status.groups.completed} completed, ${status.groups.dropped} dropped, ${status.groups.stale} stale (policy version retired); ${status.trainer_backlog} waiting for the trainer`,
    );
    io.out(
      status.workers.length
        ? `workers (${status.workers.length}):\n${table(
            ['name', 'address', 'idle s'],
            status.workers.map((w) => [w.name, w.addr, w.idle_s]),
          )}`
        : 'workers: none connected',
    );
    return 0;
  },
});
