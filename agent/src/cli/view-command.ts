import { defineCommand } from '@gauntlet/proto/cli';
import { startViewServer } from '../view/view-server.js';
import { openViewSource } from '../view/view-source.js';

export const viewCommand = defineCommand({
  name: 'view',
  summary: 'Serve an episode viewer for a run folder, a recorded demo.json or rollout trajectories on 127.0.0.1',
  description:
    "Serves one local page, bound to 127.0.0.1, listing the episodes of RUN_DIR (a folder written by run; with --screenshots it has a picture per step) with their outcome and reward, and per episode a step timeline: the screenshot with the action drawn on it (the bid's box or the click point), the AXTree diff from the previous step, the model's raw text, the parsed action, the error and the reward. A person's recording (demo.json from record, or its folder) shows as one episode: each recorded action on the page it was taken on, with its bid box when the recording kept the element boxes. ←/→ move between steps, ↑/↓ between episodes. Rollout trajectories — a .jsonl file of Trajectory, TrajectoryGroup or ConsumedGroup lines (what gauntlet-trainer grpo --keep-trajectories writes), or a folder of *trajectories*.jsonl files — show the same without pictures, plus each turn's tokens (the policy's coloured by their logprob, the env's masked), its policy version and, when the file records the trainer's version at consumption, its staleness. A bad line or demo.json is a usage error naming it. Runs until Ctrl-C.",
  options: {
    port: { kind: 'integer', help: 'Port on 127.0.0.1 (0: any free port)', default: 8765, min: 0, max: 65535 },
  },
  positionals: [
    {
      name: 'RUN_DIR',
      help: 'A run folder (episodes.jsonl), a demo.json from record (or its folder), a trajectories .jsonl file, or a folder of them',
    },
  ],
  examples: [
    'gauntlet-agent view results/oracle-2026-01-01 --port 8765',
    'gauntlet-agent view demos/click/demo.json',
    'gauntlet-agent view runs/grpo/trajectories.jsonl',
  ],
  async run({ values, positionals, io, signal }) {
    const source = openViewSource(positionals[0]!);
    const server = await startViewServer(source, values.port);
    io.out(`${server.url} (${source.episodes().length} episodes from ${source.root}; Ctrl-C stops)`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
  },
});
