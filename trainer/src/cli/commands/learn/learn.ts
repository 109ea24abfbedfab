import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisConnection } from 'bullmq';
import { DEFAULT_REDIS_URL, redisOptions } from '@gauntlet/proto/rollout/queue';
import { defineCommand, EXIT_INTERRUPTED, UsageError } from '../../command.js';
import { useOrStartRedis } from './local-redis.js';
import { startStack } from './learn-stack.js';

/** The recipe shipped with the trainer (the one compose and bench/learn.mjs train). */
export const DEFAULT_RECIPE = fileURLToPath(new URL('../../../../recipes/click-test.yaml', import.meta.url));

export const learnCommand = defineCommand({
  name: 'learn',
  summary:
    'Train with GRPO on this machine, no Docker: Redis, an env server, workers and the trainer as child processes',
  description: [
    'One command that learns: reuses the Redis at --redis (or REDIS_URL) or starts a private redis-server,',
    'starts `gauntlet-env serve`, `gauntlet-trainer grpo --config RECIPE` (its policy server and /curves',
    'on a free port) and --workers `gauntlet-worker run` processes, all on 127.0.0.1, and prints their',
    'progress and the curves URL. It ends when the trainer does (--max-steps updates); Ctrl-C stops it',
    'sooner. Either way every process it started stops, its queue keys are removed from a shared Redis',
    "and its temp folders are deleted; the run's metrics.jsonl and checkpoints stay in --output-dir.",
  ].join('\n'),
  positionals: [],
  options: {
    recipe: {
      kind: 'string',
      valueName: 'FILE',
      help: 'GRPO options file (YAML or JSON, as `grpo --config` reads); flags below override it',
      defaultText: 'the shipped click-test recipe',
    },
    task: { kind: 'string', valueName: 'NAME[=W],…', help: "Task(s) to learn (instead of the recipe's)" },
    'max-steps': { kind: 'integer', min: 1, valueName: 'N', help: "Updates to train (instead of the recipe's)" },
    workers: { kind: 'integer', min: 1, default: 2, valueName: 'N', help: 'Rollout-worker processes' },
    concurrency: {
      kind: 'integer',
      min: 1,
      default: 4,
      valueName: 'N',
      help: 'Episodes each worker plays at once',
    },
    'output-dir': {
      kind: 'string',
      valueName: 'DIR',
      help: 'Where the run writes metrics.jsonl, checkpoints and its final adapter',
      defaultText: 'runs/learn-<time>',
    },
    redis: {
      kind: 'string',
      env: 'REDIS_URL',
      default: DEFAULT_REDIS_URL,
      valueName: 'URL',
      help: 'A Redis to use; when nothing answers there, a private redis-server is started',
    },
    'grpo-arg': {
      kind: 'list',
      valueName: 'FLAG',
      repeatable: true,
      help: 'One more argument for `gauntlet-trainer grpo` (repeat; e.g. --grpo-arg=--lr --grpo-arg=1e-3)',
    },
  },
  examples: [
    'npm run learn',
    'gauntlet-trainer learn --task miniwob.click-button --max-steps 100 --workers 2',
    'gauntlet-trainer learn --recipe my-recipe.yaml --output-dir runs/mine',
  ],
  async run({ options, io, signal }) {
    const recipe = resolve(options.recipe ?? DEFAULT_RECIPE);
    if (!existsSync(recipe)) throw new UsageError(`--recipe ${recipe}: no such file`, 'recipe');
    const { workers, concurrency } = options;
    const outputDir = resolve(
      options['output-dir'] ?? join('runs', `learn-${new Date().toISOString().replace(/[:.]/g, '-')}`),
    );
    const task = options.task;
    const maxSteps = options['max-steps'] === undefined ? undefined : String(options['max-steps']);
    const grpoArgs = [
      '--config',
      recipe,
      '--output-dir',
      outputDir,
      ...(task ? ['--task', task] : []),
      ...(maxSteps ? ['--max-steps', maxSteps] : []),
      ...(options['grpo-arg'] ?? []),
    ];
    const log = (line: string) => io.err(`learn: ${line}`);
    const redis = await useOrStartRedis(options.redis, log);
    // A run of its own on a shared Redis: removed at the end, whatever happens.
    const prefix = `learn-${process.pid}-${Date.now().toString(36)}`;
    try {
      const stack = await startStack({ redisUrl: redis.url, prefix, workers, concurrency, grpoArgs, log });
      try {
        log(`training with ${recipe}; curves at ${stack.curvesUrl} (Ctrl-C stops everything)`);
        const interrupted = new Promise<'interrupted'>((done) =>
          signal.aborted ? done('interrupted') : signal.addEventListener('abort', () => done('interrupted')),
        );
        const end = await Promise.race([stack.ended, interrupted]);
        if (end === 'interrupted') {
          log('interrupted: stopping the workers, the trainer (it saves a checkpoint) and the env server');
          return EXIT_INTERRUPTED;
        }
        if (end.who !== 'the trainer') {
          log(`${end.who} exited (${end.code}) during training: stopping the rest`);
          return 1;
        }
        io.out(await summary(outputDir, end.code));
        return end.code === 0 ? 0 : 1;
      } finally {
        await stack.stop();
      }
    } finally {
      if (!redis.owned) await dropQueues(redis.url, prefix);
      await redis.stop();
      log('every process it started has stopped');
    }
  },
});

/** One line on what the run did, from its metrics.jsonl. */
async function summary(outputDir: string, code: number | string): Promise<string> {
  const file = join(outputDir, 'metrics.jsonl');
  const rows = (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { step: number; successByTask?: Record<string, number> });
  const last = rows.at(-1);
  if (!last) return `learn: the trainer exited (${code}) before its first update; nothing was trained`;
  const success = Object.entries(last.successByTask ?? {})
    .map(([task, rate]) => `${task} ${rate.toFixed(2)}`)
    .join(', ');
  return `learn: ${rows.length} updates (last ${last.step}); success at the last update: ${success || 'n/a'}; metrics ${file}`;
}

/** Every key under the run's prefix (queues, flows, events): a shared Redis is left as it was found. */
async function dropQueues(url: string, prefix: string): Promise<void> {
  const connection = new RedisConnection({ ...redisOptions(url), maxRetriesPerRequest: 1 }, { shared: false });
  try {
    const client = await connection.client;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, { MATCH: `${prefix}:*`, COUNT: 500 });
      if (keys.length) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await connection.close();
  }
}
