import type { OptionSpec } from '../../command.js';

// A repeatable flag's values are taken whole (task names, URLs and keys are never split at commas).
const s = (valueName: string, help: string, defaultText?: string, multiple = false): OptionSpec => ({
  kind: multiple ? 'list' : 'string',
  valueName,
  help,
  ...(defaultText === undefined ? {} : { defaultText }),
  ...(multiple ? { repeatable: true, noSplit: true } : {}),
});
const flag = (help: string): OptionSpec => ({ kind: 'boolean', help });

/** Every knob of `gauntlet-trainer grpo`: flags, and the keys of a --config file (same names). */
export const GRPO_OPTIONS: Record<string, OptionSpec> = {
  config: s('FILE', 'YAML or JSON file of these same options (keys as the flag names); flags given here win'),
  // What is trained
  model: s('DIR', 'Hugging Face model folder (config.json, *.safetensors, tokenizer.json)', 'built-in tiny model'),
  train: s(
    'WHAT',
    'What to train: lora, full (every weight, embeddings and head included), or a comma list of lora, embeddings, head, layers; base weights are served to the workers as inputs of the generation graph',
    'lora',
  ),
  'init-adapter': s('DIR', 'PEFT adapter to start from (an SFT or DPO run)', 'fresh LoRA (B = 0: the base model)'),
  rank: s('R', 'LoRA rank of a fresh adapter', '8'),
  alpha: s('A', 'LoRA alpha of a fresh adapter (scale alpha / r)', 'rank'),
  targets: s('LIST', 'Modules a fresh adapter adapts', 'q,k,v,o,gate,up,down _proj'),
  rslora: flag('Rank-stabilised LoRA for a fresh adapter (scale alpha / √r)'),
  task: s(
    'NAME[=WEIGHT]',
    'Task to train on and its weight; repeat for more (e.g. miniwob.click-test=2)',
    undefined,
    true,
  ),
  env: s(
    'URL',
    "The workers' env servers (ws://, http://; env GAUNTLET_ENV_URLS): --task names are checked against their task lists at start",
    'no check',
    true,
  ),
  'env-token': s('TOKEN', 'Bearer token of the --env servers (env GAUNTLET_TOKEN)', 'none'),
  seed: s('N', 'Seed of the adapter init, task draws and env seeds (same seed, same run)', '0'),
  // Groups and updates
  'group-size': s('G', 'Episodes per group (same task and seed): the completions GRPO compares', '8'),
  'groups-per-update': s('N', 'Groups per optimizer update', '4'),
  'max-steps': s('N', 'Updates to run', '100'),
  'max-staleness': s('K', 'Admit groups at most K versions behind the current one; 0 = strictly on-policy', '1'),
  'max-in-flight': s('N', 'Groups queued and not yet trained on, at most', 'groups-per-update × (max-staleness + 1)'),
  lr: s('X', 'Peak learning rate (AdamW)', '1e-4'),
  'lr-schedule': s('NAME', 'After warmup: constant, linear or cosine (to 0 at --max-steps)', 'constant'),
  warmup: s('N', 'Updates of linear warmup', '0'),
  'weight-decay': s('X', 'AdamW decoupled weight decay', '0'),
  'max-grad-norm': s('X', 'Global gradient-norm clip', '1'),
  'micro-batch': s(
    'N',
    'Sequences per forward/backward pass (memory bound; results do not change)',
    'as many as fit 8192 tokens',
  ),
  'max-sequence-tokens': s(
    'N',
    'Longest training sequence (prompt + completion) a group may bring; longer groups are counted bad',
    "the model's context, at most 8192",
  ),
  'max-failed-updates': s('N', 'Updates in a row the engine may fail (each drops its batch) before the run stops', '3'),
  // GRPO (TRL's names and defaults)
  'scale-rewards': s('MODE', 'Advantage scaling: group, batch or none', 'group'),
  'loss-type': s('NAME', 'Loss normalisation: grpo, bnpo, dr_grpo or dapo', 'dapo'),
  'ratio-level': s('LEVEL', 'Importance ratio per token, or per sequence (GSPO)', 'token'),
  epsilon: s('X', 'Clip range below 1 (and above unless --epsilon-high)', '0.2'),
  'epsilon-high': s('X', 'Clip range above 1', 'epsilon'),
  delta: s('X', 'Cap of the unclipped ratio (two-sided GRPO; > 1)', 'off'),
  beta: s('X', 'Weight of the k3 KL to the adapter-free model (0: no reference pass)', '0'),
  'kl-metric': flag('Log the k3 KL to the adapter-free model even with --beta 0 (one reference pass per update)'),
  'num-iterations': s('N', 'Updates per batch of groups (old log-probs taken before the first)', '1'),
  'mask-truncated-completions': flag('Train nothing on episodes cut by a length limit'),
  'max-completion-length': s('N', "dr_grpo's normaliser", 'none'),
  'sampler-correction': s(
    'LEVEL',
    'Sampler → trainer importance correction: token, sequence or off',
    'sequence; off with --constrained and --vllm-url (vLLM reports masked log-probs)',
  ),
  'sampler-correction-mode': s('MODE', 'truncate (clamp) or mask (zero) weights outside the bounds', 'mask'),
  'sampler-correction-min': s('X', 'Lower bound of the correction weight', '0'),
  'sampler-correction-max': s('X', 'Upper bound of the correction weight', '3'),
  'no-entropy': flag('Do not log the policy entropy (saves one softmax per token)'),
  // Step-level credit (GiGPO)
  advantage: s(
    'NAME',
    "grpo: one advantage per episode; gigpo: adds each turn's step-level advantage, from the turns of its group that saw the same page",
    'grpo',
  ),
  'step-weight': s('W', "With --advantage gigpo: weight of the step-level advantage added to the episode's", '1'),
  gamma: s(
    'G',
    'With --advantage gigpo: discount of the per-turn returns the step advantage compares (0 to 1)',
    '0.95',
  ),
  // Curriculum
  'no-curriculum': flag('Draw tasks by their weights alone'),
  'curriculum-window': s('N', 'Recent episodes per task the success rate is measured over', '32'),
  'curriculum-floor': s('X', 'Weight factor of a task at success 0 or 1 (1 at success 0.5)', '0.1'),
  'start-step': s('N', 'Gauntlet tasks start at this step, moving earlier as they succeed (0 = off)', '0'),
  // Episodes
  'max-turns': s('N', 'Turns per episode', '10'),
  'max-tokens': s('N', 'Tokens sampled per turn', '32'),
  temperature: s('X', 'Sampling temperature (the learner scores log-probs at the same one)', '1'),
  'top-p': s('X', 'Nucleus sampling', '1'),
  'top-k': s('N', 'Top-k sampling (-1 = off)', '-1'),
  constrained: flag('Constrain replies to the action grammar (structured outputs)'),
  'bid-choices': flag('With --constrained: element arguments only among the bids each observation shows'),
  'action-names': s('A,B,…', 'With --constrained: only these actions (e.g. click,fill)', 'every action'),
  'context-tokens': s('N', 'Prompt + reply tokens per turn; older exchanges are trimmed', "the model's"),
  'observation-chars': s('N', 'Characters per rendered observation', 'no limit'),
  'observation-format': s(
    'F',
    "axtree (BrowserGym's tree as sent) or pruned (interactive elements and nearby text)",
    'axtree',
  ),
  'deadline-ms': s('MS', 'Deadline of one episode', '120000'),
  // Queues
  redis: s('URL', 'Redis of the rollout queues (env REDIS_URL)', 'redis://127.0.0.1:6379'),
  prefix: s('NAME', 'Queue key prefix shared with the workers (env GAUNTLET_QUEUE_PREFIX)', 'gauntlet'),
  'redis-timeout-ms': s('MS', 'How long to wait for Redis at start before exiting 1 with the reason', '5000'),
  // Run, checkpoints, output
  'run-name': s('NAME', 'Names the versions (<run>@v<N>) and group ids', 'grpo'),
  'output-dir': s('DIR', 'Checkpoints, published adapters and metrics.jsonl', 'runs/<run-name>'),
  'checkpoint-every': s('N', 'Save a checkpoint every N updates (and on SIGINT/SIGTERM)', '10'),
  'keep-checkpoints': s('N', 'Checkpoints kept (older ones are pruned)', '3'),
  'keep-trajectories': s(
    'N',
    'Keep the last N consumed groups in <output-dir>/trajectories.jsonl for gauntlet-agent view (0 = none)',
    '4',
  ),
  'viewer-url': s(
    'URL',
    'Where you serve gauntlet-agent view for this run: /curves links to it',
    'none: /curves shows the command only',
  ),
  resume: flag("Continue from the output folder's latest checkpoint (none yet: start the run)"),
  'keep-groups': s(
    'N',
    'Finished groups left in Redis for a look (viewer, debugging); older ones are removed once trained',
    '32',
  ),
  'drain-ms': s('MS', 'After the last update, how long groups in flight may finish before they are removed', '60000'),
  // Policy serving
  host: s('ADDR', 'Address of the policy server, /metrics and /curves', '127.0.0.1'),
  port: s('N', 'Port of the policy server, /metrics and /curves (0 = any free port)', '8001'),
  'vllm-url': s(
    'URL',
    'External vLLM server to publish versions to; repeat for more (rollouts then use them only)',
    undefined,
    true,
  ),
  'api-key': s('KEY', 'API key of the --vllm-url servers, and of this server (env VLLM_API_KEY)'),
  'public-metrics': flag('Serve /metrics, /curves and /curves.json without the API key (scrapes inside a cluster)'),
  'stay-up': flag(
    "After the last update, keep serving the finished run's /curves, /metrics and policy until SIGTERM/SIGINT (then exit 0)",
  ),
  'publish-dir': s(
    'DIR',
    'Where versions are written for --vllm-url servers (the same path on their side); with --train full, where each version is written as a model folder for external servers',
    '<output-dir>/adapters; with --train full, none written',
  ),
  'probe-tolerance': s('X', 'Largest probe log-prob difference a server may show', '1e-3'),
  threads: s('N', 'onnxruntime threads per op', 'one per core'),
  device: s('NAME', 'Execution provider: cpu or cuda', 'cpu'),
};
