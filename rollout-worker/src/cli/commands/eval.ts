import { readFile, writeFile } from 'node:fs/promises';
import { checkDemonstrationTemplate, DEFAULT_DEMONSTRATION_TEMPLATE } from '@gauntlet/proto/agent';
import { demonstrationsFor, readDemoActions } from '../../episode/demonstrations.js';
import { evaluate } from '../../episode/evaluate.js';
import { EnvPool } from '../../env/env-pool.js';
import { PolicyPool, RANDOM_POLICY } from '../../policies/policy-pool.js';
import { defineCommand, UsageError } from '../command.js';
import { EPISODE_OPTIONS, episodeSettings, policyRef } from '../options.js';
import { checkTaskNames, table } from '@gauntlet/proto/cli';

export const evalCommand = defineCommand({
  name: 'eval',
  summary: 'Play N episodes per task with a policy; print a success-rate table and JSON',
  description: [
    'Plays --episodes episodes of every --task (seeds --first-seed, --first-seed+1, …) directly on the',
    'env servers with the policy, --concurrency at a time (no queue needed), and prints per task the',
    'success rate, outcomes, mean reward and mean turns. An episode that meets an infrastructure error',
    'is played again (--attempts tries) and otherwise counted apart, never as a failure of the policy;',
    'so is an episode the env could not judge (unjudged: a task without a goal spec), never a success.',
    `--policy ${RANDOM_POLICY} gives the random-click baseline. --json prints the report as JSON instead of`,
    'the table; --out also writes it to a file. --demo shows the policy a demonstration of each task in',
    "every observation (the actions of a recorded or collected episode, as SDFT's teacher sees them).",
  ].join('\n'),
  options: {
    env: {
      kind: 'list',
      valueName: 'URL',
      help: 'Env server (grpc://, http://, ws://)',
      repeatable: true,
      env: 'GAUNTLET_ENV_URLS',
    },
    policy: {
      kind: 'list',
      valueName: 'URL',
      help: `Policy server, or "${RANDOM_POLICY}"`,
      repeatable: true,
      env: 'GAUNTLET_POLICY_URLS',
    },
    task: { kind: 'list', valueName: 'NAME', help: 'Task to evaluate', repeatable: true },
    episodes: { kind: 'integer', min: 1, default: 10, valueName: 'N', help: 'Episodes per task' },
    'first-seed': {
      kind: 'integer',
      min: 0,
      default: 0,
      valueName: 'N',
      help: "Seed of each task's first episode",
    },
    concurrency: { kind: 'integer', min: 1, default: 4, valueName: 'N', help: 'Episodes played at once' },
    attempts: {
      kind: 'integer',
      min: 1,
      default: 3,
      valueName: 'N',
      help: 'Tries per episode while it hits infrastructure errors',
    },
    'env-token': {
      kind: 'string',
      valueName: 'TOKEN',
      help: 'Bearer token of the env servers',
      env: 'GAUNTLET_TOKEN',
    },
    'policy-api-key': {
      kind: 'string',
      valueName: 'KEY',
      help: 'API key of the policy servers',
      env: 'VLLM_API_KEY',
    },
    json: { kind: 'boolean', help: 'Print the JSON report instead of the table' },
    out: { kind: 'string', valueName: 'FILE', help: 'Also write the JSON report here' },
    demo: {
      kind: 'string',
      valueName: 'FILE',
      help: "Show each task's demonstration (demo.jsonl from gauntlet-agent record or gauntlet-env collect; demo.json reads the demo.jsonl beside it) in every observation",
    },
    'demo-template': {
      kind: 'string',
      valueName: 'FILE',
      help: "With --demo: how the demonstration is written in ({demonstration} and {observation}; default: the one sdft's teacher reads)",
    },
    ...EPISODE_OPTIONS,
  },
  examples: [
    `gauntlet-worker eval --env grpc://127.0.0.1:50051 --policy ${RANDOM_POLICY} --task click-test --task click-button --episodes 20`,
    'gauntlet-worker eval --env grpc://127.0.0.1:50051 --policy http://127.0.0.1:8001 --adapter grpo --task click-test --out eval.json',
    'gauntlet-worker eval --env grpc://127.0.0.1:50051 --policy http://127.0.0.1:8001 --task login-user --demo runs/demo/demo.jsonl',
  ],
  async run({ values, io, signal }) {
    const tasks = values.task ?? [];
    if (tasks.length === 0) throw new UsageError('--task is required (e.g. --task click-test)', 'task');
    const envUrls = values.env ?? [];
    if (envUrls.length === 0) throw new UsageError('--env is required (e.g. --env grpc://127.0.0.1:50051)', 'env');
    const policyUrls = values.policy ?? [];
    if (policyUrls.length === 0)
      throw new UsageError(`--policy is required: policy server URLs, or ${RANDOM_POLICY}`, 'policy');
    const demonstrations = await readDemonstrations(tasks, values.demo, values['demo-template']);
    const concurrency = values.concurrency;
    const token = values['env-token'];
    const check = await checkTaskNames(tasks, envUrls, { token });
    if (!check.checked) io.err(`eval: task names not checked (${check.reason})`);
    const envs = new EnvPool(envUrls, { token, maxIdle: concurrency });
    const policies = new PolicyPool(policyUrls, { apiKey: values['policy-api-key'] });
    const policy = policyRef(values, policyUrls[0] === RANDOM_POLICY ? RANDOM_POLICY : 'tiny');
    await envs.start();
    try {
      const report = await evaluate(
        {
          tasks,
          episodesPerTask: values.episodes,
          firstSeed: values['first-seed'],
          policy,
          settings: episodeSettings(values, tasks),
          concurrency,
          attempts: values.attempts,
          ...(demonstrations ? { demonstrations } : {}),
        },
        { envs, policies },
        (done, total, t) =>
          io.err(
            `[${done}/${total}] ${t.task} seed ${t.seed}: ${t.outcome}, reward ${t.reward}, ${t.turns.length} turns`,
          ),
        signal,
      );
      const json = JSON.stringify(report, null, 2);
      if (values.out) await writeFile(values.out, `${json}\n`);
      if (values.json) {
        io.out(json);
      } else {
        io.out(
          table(
            [
              'task',
              'episodes',
              'success rate',
              'success',
              'fail',
              'timeout',
              'infra_error',
              'unjudged',
              'mean reward',
              'mean turns',
            ],
            report.tasks.map((t) => [
              t.task,
              t.episodes,
              `${(t.success_rate * 100).toFixed(1)}%`,
              t.success,
              t.fail,
              t.timeout,
              t.infra_error,
              t.unjudged,
              t.mean_reward,
              t.mean_turns,
            ]),
          ),
        );
      }
      // A report of nothing but infra errors measured no policy: say so and fail the command.
      const played = report.tasks.reduce((n, t) => n + t.episodes - t.infra_error, 0);
      if (played === 0) {
        io.err(
          `eval: no episode could run (all ${report.episodes.length} ended as infra_error); check --env (${envUrls.join(', ')}) and --policy`,
        );
        return 1;
      }
      return 0;
    } finally {
      await envs.close();
    }
  },
});

/** --demo and --demo-template, read and checked before any episode starts. */
async function readDemonstrations(tasks: string[], demo: string | undefined, templateFile: string | undefined) {
  if (demo === undefined) {
    if (templateFile !== undefined)
      throw new UsageError('--demo-template needs --demo (the demonstration it places)', 'demo-template');
    return undefined;
  }
  let template = DEFAULT_DEMONSTRATION_TEMPLATE;
  if (templateFile !== undefined) {
    template = await readFile(templateFile, 'utf8').catch((error: Error) => {
      throw new UsageError(`--demo-template ${templateFile}: ${error.message}`, 'demo-template');
    });
    try {
      checkDemonstrationTemplate(template);
    } catch (error) {
      throw new UsageError(`--demo-template ${templateFile}: ${(error as Error).message}`, 'demo-template');
    }
  }
  return demonstrationsFor(tasks, await readDemoActions(demo), template, demo);
}
