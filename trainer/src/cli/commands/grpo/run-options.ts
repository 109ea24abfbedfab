import { OBSERVATION_FORMATS } from '@gauntlet/proto';
import { DEFAULT_PREFIX, DEFAULT_REDIS_URL } from '@gauntlet/proto/rollout/queue';
import { DEFAULT_KEEP_GROUPS } from '../../../rl/loop/retention.js';
import { defineOptions } from '../../command.js';
import { DEVICES } from '../sft/options.js';
import { flag, many, s } from './option-rows.js';

/** How grpo runs: episodes, queues, checkpoints and output, policy serving. */
export const RUN_OPTIONS = defineOptions({
  // Episodes
  'max-turns': { kind: 'integer', min: 1, default: 10, valueName: 'N', help: 'Turns per episode' },
  'max-tokens': { kind: 'integer', min: 1, default: 32, valueName: 'N', help: 'Tokens sampled per turn' },
  temperature: {
    kind: 'number',
    above: 0,
    default: 1,
    valueName: 'X',
    help: 'Sampling temperature (the learner scores log-probs at the same one)',
  },
  'top-p': { kind: 'number', above: 0, default: 1, valueName: 'X', help: 'Nucleus sampling' },
  'top-k': { kind: 'integer', min: -1, default: -1, valueName: 'N', help: 'Top-k sampling (-1 = off)' },
  constrained: flag('Constrain replies to the action grammar (structured outputs)'),
  'bid-choices': flag('With --constrained: element arguments only among the bids each observation shows'),
  'text-choices': flag("With --constrained: fill and select_option take only one of the goal's double-quoted values"),
  'action-names': {
    kind: 'list',
    valueName: 'A,B,…',
    help: 'With --constrained: only these actions (e.g. click,fill)',
    defaultText: 'every action',
  },
  'context-tokens': {
    kind: 'integer',
    min: 64,
    valueName: 'N',
    help: 'Prompt + reply tokens per turn; older exchanges are trimmed',
    defaultText: "the model's",
  },
  'observation-chars': {
    kind: 'integer',
    min: 256,
    valueName: 'N',
    help: 'Characters per rendered observation',
    defaultText: 'no limit',
  },
  'observation-format': {
    kind: 'string',
    choices: OBSERVATION_FORMATS,
    default: 'axtree',
    valueName: 'F',
    help: "axtree (BrowserGym's tree as sent) or pruned (interactive elements and nearby text)",
  },
  'deadline-ms': { kind: 'integer', min: 1000, default: 120_000, valueName: 'MS', help: 'Deadline of one episode' },
  // Queues
  redis: {
    kind: 'string',
    env: 'REDIS_URL',
    default: DEFAULT_REDIS_URL,
    valueName: 'URL',
    help: 'Redis of the rollout queues',
  },
  prefix: {
    kind: 'string',
    env: 'GAUNTLET_QUEUE_PREFIX',
    default: DEFAULT_PREFIX,
    valueName: 'NAME',
    help: 'Queue key prefix shared with the workers',
  },
  'redis-timeout-ms': {
    kind: 'integer',
    min: 1,
    default: 5000,
    valueName: 'MS',
    help: 'How long to wait for Redis at start before exiting 1 with the reason',
  },
  // Run, checkpoints, output
  'run-name': {
    kind: 'string',
    default: 'grpo',
    valueName: 'NAME',
    help: 'Names the versions (<run>@v<N>) and group ids',
  },
  'output-dir': s('DIR', 'Checkpoints, published adapters and metrics.jsonl', 'runs/<run-name>'),
  'checkpoint-every': {
    kind: 'integer',
    min: 1,
    default: 10,
    valueName: 'N',
    help: 'Save a checkpoint every N updates (and on SIGINT/SIGTERM)',
  },
  'keep-checkpoints': {
    kind: 'integer',
    min: 1,
    default: 3,
    valueName: 'N',
    help: 'Checkpoints kept (older ones are pruned)',
  },
  'keep-trajectories': {
    kind: 'integer',
    min: 0,
    default: 4,
    valueName: 'N',
    help: 'Keep the last N consumed groups in <output-dir>/trajectories.jsonl for gauntlet-agent view (0 = none)',
  },
  'viewer-url': s(
    'URL',
    'Where you serve gauntlet-agent view for this run: /curves links to it',
    'none: /curves shows the command only',
  ),
  resume: flag("Continue from the output folder's latest checkpoint (none yet: start the run)"),
  'keep-groups': {
    kind: 'integer',
    min: 0,
    default: DEFAULT_KEEP_GROUPS,
    valueName: 'N',
    help: 'Finished groups left in Redis for a look (viewer, debugging); older ones are removed once trained',
  },
  'drain-ms': {
    kind: 'integer',
    min: 0,
    default: 60_000,
    valueName: 'MS',
    help: 'After the last update, how long groups in flight may finish before they are removed',
  },
  // Policy serving
  host: {
    kind: 'string',
    default: '127.0.0.1',
    valueName: 'ADDR',
    help: 'Address of the policy server, /metrics and /curves',
  },
  port: {
    kind: 'integer',
    min: 0,
    default: 8001,
    valueName: 'N',
    help: 'Port of the policy server, /metrics and /curves (0 = any free port)',
  },
  'vllm-url': many('URL', 'External vLLM server to publish versions to; repeat for more (rollouts then use them only)'),
  'api-key': {
    kind: 'string',
    env: 'VLLM_API_KEY',
    valueName: 'KEY',
    help: 'API key of the --vllm-url servers, and of this server',
  },
  'public-metrics': flag('Serve /metrics, /curves and /curves.json without the API key (scrapes inside a cluster)'),
  'stay-up': flag(
    "After the last update, keep serving the finished run's /curves, /metrics and policy until SIGTERM/SIGINT (then exit 0)",
  ),
  'publish-dir': s(
    'DIR',
    'Where versions are written for --vllm-url servers (the same path on their side); with --train full, where each version is written as a model folder for external servers',
    '<output-dir>/adapters; with --train full, none written',
  ),
  'probe-tolerance': {
    kind: 'number',
    above: 0,
    default: 1e-3,
    valueName: 'X',
    help: 'Largest probe log-prob difference a server may show',
    defaultText: '1e-3',
  },
  threads: { kind: 'integer', min: 1, valueName: 'N', help: 'onnxruntime threads per op', defaultText: 'one per core' },
  device: {
    kind: 'string',
    choices: DEVICES,
    default: 'cpu',
    valueName: 'NAME',
    help: 'Execution provider',
  },
});
