#!/usr/bin/env node
import { runBin } from '@gauntlet/proto/cli';
import { TOOL } from '../dist/cli/main.js';

await runBin(TOOL);
