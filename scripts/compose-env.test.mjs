import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The offline path itself (images, .env lines) runs in test/e2e/compose.test.ts on a real engine.
const script = fileURLToPath(new URL('./compose-env.sh', import.meta.url));
const dirs = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('scripts/compose-env.sh', () => {
  it('without a Docker engine: exit 1, the commands that set one up, and no .env written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gauntlet-compose-env-'));
    dirs.push(dir);
    const envFile = join(dir, '.env');
    // An engine address nothing answers on stands in for a machine without Docker.
    const run = spawnSync('bash', [script, envFile], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no reachable Docker engine');
    expect(run.stderr).toMatch(/^ {4}apt-get install -y docker\.io debootstrap$/m);
    expect(run.stderr).toContain(`    ${script}`);
    expect(existsSync(envFile)).toBe(false);
  });
});
