import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/index.js';
import { main } from './main.js';

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, new AbortController().signal);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('gauntlet-worker', () => {
  it('has --help for the tool and for every command, explaining every flag', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    for (const command of COMMANDS) {
      expect(top.out).toContain(`  ${command.name} `);
      const help = await cli([command.name, '--help']);
      expect(help.code).toBe(0);
      for (const flag of Object.keys(command.options))
        expect(help.out, `${command.name} --${flag}`).toMatch(new RegExp(`--${flag}\\b.*\\S`));
    }
  });

  it('answers a wrong command line with exit code 2 and a message that says what to fix', async () => {
    expect(await cli(['runn'])).toMatchObject({
      code: 2,
      err: 'gauntlet-worker: unknown command "runn" (did you mean run?); commands: run, submit, eval, status',
    });
    expect(await cli(['--redis', 'x'])).toMatchObject({
      code: 2,
      err: 'gauntlet-worker: unknown flag --redis (flags go after the command name; see --help)',
    });
    // The kit's one line: tool, command, what to fix, where to read more.
    expect(await cli(['run', '--policy', 'random'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^gauntlet-worker run: --env is required.* \(see --help\)$/),
    });
    expect(await cli(['run', '--env', 'grpc://127.0.0.1:1'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--policy is required/),
    });
    // Refused at submit, before Redis is asked: a reply that fills the whole context leaves no room for a prompt.
    expect(
      await cli(['submit', '--task', 'click-test', '--max-tokens', '512', '--context-tokens', '256']),
    ).toMatchObject({
      code: 2,
      err: expect.stringMatching(/sampling\.max_tokens: must be below context_tokens/),
    });
    expect(await cli(['submit', '--task', 'click-test', '--seeds', '9-3'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--seeds: range 9-3 runs backwards/),
    });
    expect(await cli(['submit', '--task', 'click-test', '--max-turns', '0'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--max-turns must be an integer ≥ 1/),
    });
    expect(await cli(['submit', '--task', 'click-test', '--id-prefix', 'a:b'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--id-prefix "a:b" must be letters/),
    });
    expect(await cli(['eval', '--env', 'ftp://x', '--policy', 'random', '--task', 't'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/use grpc:\/\/, http:\/\/ or ws:\/\//),
    });
    expect(await cli(['status', '--redis', 'localhost:6379'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/Redis URL "localhost:6379" must start with redis:\/\//),
    });
    expect(await cli(['status', 'extra'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unexpected argument "extra"/),
    });
    // Read before anything starts, not discovered at shutdown.
    expect(await cli(['run', '--env', 'grpc://127.0.0.1:1', '--policy', 'random', '--drain-ms', 'soon'])).toMatchObject(
      { code: 2, err: expect.stringMatching(/--drain-ms must be an integer ≥ 0 \(got "soon"\)/) },
    );
    expect(await cli(['run', '--bogus'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown flag --bogus/),
    });
  });
});
