// Entrypoint of the trainer and rollout-worker images: `node entrypoint.mjs <tool> [args…]`.
// Binds HOST (0.0.0.0 in the image) unless the command line names a host, refuses to start a
// listening command without a token under GAUNTLET_REQUIRE_TOKEN=1 (exit 2), drops grpo's
// --resume while its output folder is empty (a first start), then runs the tool in this process
// so signals from tini reach it directly.
import { readdirSync } from 'node:fs';
import { planStart } from './start-plan.mjs';

const isEmptyDir = (dir) => {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return true;
  }
};
const [tool = '', ...args] = process.argv.slice(2);
const plan = planStart(tool, args, process.env, isEmptyDir);
if ('exitCode' in plan) {
  process.stderr.write(`${plan.message}\n`);
  process.exit(plan.exitCode);
}
process.argv = [process.argv[0], plan.bin, ...plan.args];
await import(plan.bin);
