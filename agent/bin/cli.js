#!/usr/bin/env node
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[gauntlet-agent] ${error?.stack ?? error}`);
    process.exit(1);
  },
);
