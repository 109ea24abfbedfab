// The GRPO recipe of the learning benchmarks, as `gauntlet-trainer grpo` flags: the built-in tiny
// model, a fresh LoRA, replies constrained to the action grammar with element arguments limited to
// the page's bids (an untrained model then picks among real actions on real elements; see
// docs/rollout-worker.md), one turn per episode. Flags given after it win.
export const TINY_RECIPE = [
  ['--group-size', '8'],
  ['--groups-per-update', '2'],
  ['--max-staleness', '1'],
  ['--lr', '3e-3'],
  ['--rank', '8'],
  ['--max-turns', '1'],
  ['--max-tokens', '24'],
  ['--temperature', '2.5'],
  ['--constrained'],
  ['--bid-choices'],
  ['--threads', '1'],
  ['--checkpoint-every', '1000'],
].flat();
