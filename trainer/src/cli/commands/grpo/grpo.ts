import { defineCommand } from '../../command.js';
import { GRPO_OPTIONS } from './options.js';
import { runGrpoJob } from './run.js';
import { parseGrpoSettings } from './settings.js';

export const grpoCommand = defineCommand({
  name: 'grpo',
  summary: 'Train a LoRA adapter with GRPO on groups played by the rollout workers (BullMQ)',
  description: [
    'Feeds group jobs (task, env seed, G episodes, the current adapter version) to the rollout workers',
    'through BullMQ, consumes the finished groups, and updates the adapter with GRPO. Version N (after N',
    'updates) is served as <run>@v<N>: by default by this process itself (the vLLM-compatible API on',
    "--host/--port; point the workers' --policy at it), or, with --vllm-url, written under --publish-dir,",
    'loaded on every server and verified there (listed, probe log-probs within --probe-tolerance); a server',
    'that fails leaves the rotation and jobs name only the servers in it.',
    '',
    'Asynchronous: workers go on playing queued groups while the trainer updates; a group more than',
    '--max-staleness versions old when it arrives is dropped and counted (0 = strictly on-policy).',
    'Tasks are drawn by weight, favouring those whose recent success is neither 0 nor 1.',
    '',
    'Every option can also come from --config FILE (YAML or JSON, keys as the flag names); flags win,',
    'then the file, then REDIS_URL / GAUNTLET_QUEUE_PREFIX / VLLM_API_KEY. Metrics go to',
    '<output-dir>/metrics.jsonl, the terminal and /metrics. Ctrl-C / SIGTERM stops at the next safe',
    'point; groups still in flight are left in the queues.',
  ].join('\n'),
  positionals: [],
  options: GRPO_OPTIONS,
  examples: [
    'gauntlet-trainer grpo --task miniwob.click-test --max-steps 50 --lr 2e-3   # then: gauntlet-worker run --policy http://127.0.0.1:8001 …',
    'gauntlet-trainer grpo --config grpo.yaml --vllm-url http://gpu-a:8000 --vllm-url http://gpu-b:8000 --publish-dir /mnt/runs/adapters',
  ],
  run: (context) => runGrpoJob(parseGrpoSettings(context), context.io, context.signal),
});
