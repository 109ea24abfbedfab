import { defineConfig } from 'vitest/config';

// One run covers every workspace. Integration tests drive real Chromium / Redis / onnxruntime,
// so they get generous timeouts; files run in parallel across the 2 cores by default. test/e2e
// builds and runs the Docker images on a real engine (its hooks carry their own, longer limits).
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
    // The default output, then the 15 slowest files (where CI's minutes go).
    reporters: ['default', './scripts/slowest-files.mjs'],
  },
});
