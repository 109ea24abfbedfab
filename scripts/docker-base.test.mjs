import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./docker-base.sh', import.meta.url));

describe('scripts/docker-base.sh', () => {
  it('fails without a Docker engine, printing the commands that set one up', () => {
    // An engine address nothing answers on stands in for a machine without Docker.
    const run = spawnSync('bash', [script], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no reachable Docker engine');
    expect(run.stderr).toMatch(/^ {4}apt-get install -y docker\.io debootstrap$/m);
    expect(run.stderr).toMatch(/^ {4}dockerd >\/var\/log\/dockerd\.log 2>&1 &$/m);
    expect(run.stderr).toContain(`    ${script}`);
  });
});
