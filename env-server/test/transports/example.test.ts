import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer } from '../support/server.js';
import { urlFor } from './harness.js';

// The README's SDK example, run as a user would run it, so the documentation cannot rot.
const example = fileURLToPath(new URL('../../../proto/examples/click-test.mjs', import.meta.url));

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('proto/examples/click-test.mjs', () => {
  // One transport is enough here: the conformance suite covers all three through the same SDK.
  it('solves click-test over the gRPC URL the README uses', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [example, urlFor(server, 'grpc')]);
    expect(JSON.parse(stdout)).toMatchObject({ transport: 'grpc', reward: 1, done: true });
  });
});
