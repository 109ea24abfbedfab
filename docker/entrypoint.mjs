// Entrypoint of the trainer and rollout-worker images: `node entrypoint.mjs <tool> [args…]`.
// Binds HOST (0.0.0.0 in the image) unless the command line names a host, refuses to start a
// listening command without a token under GAUNTLET_REQUIRE_TOKEN=1 (exit 2), then runs the tool
// in this process so signals from tini reach it directly. (grpo --resume starts a run afresh
// while its output folder holds no checkpoint, so a restarted container never crash-loops.)
import { planStart } from './start-plan.mjs';

const [tool = '', ...args] = process.argv.slice(2);
const plan = planStart(tool, args, process.env);
if ('exitCode' in plan) {
  process.stderr.write(`${plan.message}\n`);
  process.exit(plan.exitCode);
}
process.argv = [process.argv[0], plan.bin, ...plan.args];
await import(plan.bin);
