import { REPO, run, tail } from './docker.js';

/**
 * One `docker compose` project of the repository's docker-compose.yml under its own name, with
 * the variables the file reads (from the environment, and from `envFile` in place of the
 * repository's .env when given) and extra compose files (test overrides) layered on top.
 */
export class ComposeProject {
  constructor(
    readonly name: string,
    private readonly variables: Record<string, string>,
    private readonly overrides: string[] = [],
    private readonly envFile?: string,
  ) {}

  /** `docker compose …`, throwing with its output when it fails. */
  async run(args: string[], timeoutMs = 120_000): Promise<string> {
    const files = ['docker-compose.yml', ...this.overrides].flatMap((file) => ['--file', file]);
    const envFile = this.envFile ? ['--env-file', this.envFile] : [];
    const result = await run('docker', ['compose', '--project-name', this.name, ...envFile, ...files, ...args], {
      timeoutMs,
      env: { ...process.env, ...this.variables },
    });
    if (result.code !== 0)
      throw new Error(
        `docker compose ${args.join(' ')} exited ${result.code}:\n${tail(result.stderr + result.stdout)}`,
      );
    return result.stdout.trim();
  }

  /** The host port published for a service's container port (replica `index`, from 1). */
  async port(service: string, port: number, index = 1): Promise<number> {
    const line = await this.run(['port', '--index', String(index), service, String(port)]);
    return Number(line.slice(line.lastIndexOf(':') + 1));
  }

  /** Polls `check` every second until it returns a value, or throws with the services' logs. */
  async waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check().catch(() => undefined);
      if (value !== undefined) return value;
      if (Date.now() > deadline) {
        const logs = await this.run(['logs', '--no-color', '--tail', '30']).catch((error: Error) => error.message);
        throw new Error(`${what} did not happen within ${timeoutMs} ms; logs:\n${logs}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  /** What Docker still holds of this project (containers, volumes, networks), by compose's label. */
  async leftovers(): Promise<string[]> {
    const label = `label=com.docker.compose.project=${this.name}`;
    const lists = await Promise.all([
      run('docker', ['ps', '--all', '--quiet', '--filter', label], { cwd: REPO }),
      run('docker', ['volume', 'ls', '--quiet', '--filter', label], { cwd: REPO }),
      run('docker', ['network', 'ls', '--quiet', '--filter', label], { cwd: REPO }),
    ]);
    return lists.flatMap((list) => list.stdout.split('\n').filter(Boolean));
  }
}
