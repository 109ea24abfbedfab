#!/usr/bin/env node
// gauntlet-trainer: runs the compiled CLI (trainer/dist); build it with `npm run build`.
let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  process.stderr.write(
    'gauntlet-trainer is not built yet: run `npm run build` (or `npx tsc -b trainer`) in the repository root.\n',
  );
  process.exit(1);
}
const { runBin } = await import('@gauntlet/proto/cli');
await runBin(cli.TRAINER);
