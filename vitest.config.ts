import { defineConfig } from 'vitest/config';
import CostliestFirstSequencer from './scripts/test-order.mjs';

// One run covers every workspace. Integration tests drive real Chromium / Redis / onnxruntime,
// so they get generous timeouts. test/e2e builds and runs the Docker images on a real engine (its
// hooks carry their own, longer limits).
//
// GAUNTLET_TEST_WORKERS sets how many files run at a time; unset, vitest's default (one fewer than
// the cores: one at a time on 2 cores). On a 2-core CI machine two at a time took 1833 s against
// 1966 s one at a time: the suite is bound by CPU (browsers, onnxruntime, image builds), not by
// waiting, so two barely help there. More cores do.
const WORKERS = Number(process.env['GAUNTLET_TEST_WORKERS']) || undefined;

export default defineConfig({
  test: {
    include: [
      '{proto,env-server,rollout-worker,trainer,agent}/{src,test}/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      'test/k8s/**/*.test.ts',
      'test/viewer/**/*.test.ts',
      'test/record/**/*.test.ts',
      'scripts/**/*.test.mjs',
      'docker/**/*.test.mjs',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    ...(WORKERS ? { maxWorkers: WORKERS } : {}),
    // The costliest files first, by their recorded seconds (test/file-seconds.json).
    sequence: { sequencer: CostliestFirstSequencer },
    // The default output, then the 15 slowest files (where CI's minutes go).
    reporters: ['default', './scripts/slowest-files.mjs'],
  },
});
