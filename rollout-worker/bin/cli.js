#!/usr/bin/env node
import { runBin } from '@gauntlet/proto/cli';
import { WORKER } from '../dist/cli/main.js';

await runBin(WORKER);
