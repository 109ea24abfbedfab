import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineOptions } from './option-table.js';
import { parseOptions } from './parse.js';
import { parseSeeds } from './seeds.js';
import { UsageError } from './usage-error.js';

const table = defineOptions({
  mode: { kind: 'string', help: 'how to act', choices: ['oracle', 'api'], default: 'oracle' },
  'max-steps': { kind: 'integer', help: 'turns', default: 30, min: 1 },
  temperature: { kind: 'number', help: 'sampling', min: 0 },
  'api-key': { kind: 'string', help: 'key', env: 'TEST_API_KEY' },
  headed: { kind: 'boolean', help: 'show it' },
  tags: { kind: 'list', help: 'labels' },
});

function usage(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('parseOptions', () => {
  it('applies defaults, converts kinds and reads the environment', () => {
    const { values } = parseOptions(table, {
      args: ['--temperature', '0.5', '--tags', 'a, b,', '--headed'],
      env: { TEST_API_KEY: 'sk-env' },
    });
    expect(values).toEqual({
      mode: 'oracle',
      'max-steps': 30,
      temperature: 0.5,
      'api-key': 'sk-env',
      headed: true,
      tags: ['a', 'b'],
    });
  });

  it('ranks flag over --config file over environment over default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify({ 'max-steps': 12, mode: 'api', 'api-key': 'sk-file' }));
    const { values } = parseOptions(table, {
      args: ['--config', file, '--mode', 'oracle'],
      env: { TEST_API_KEY: 'sk-env' },
    });
    expect(values).toMatchObject({ mode: 'oracle', 'max-steps': 12, 'api-key': 'sk-file' });
  });

  it('reports as given only what a flag or the config file set, not the environment or a default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify({ 'max-steps': 12 }));
    const { given } = parseOptions(table, {
      args: ['--config', file, '--headed'],
      env: { TEST_API_KEY: 'sk-env' },
    });
    expect([...given].sort()).toEqual(['headed', 'max-steps']);
  });

  it("checks a string flag with its row's own test, from the flag or the environment", () => {
    const ports = {
      'grpc-port': {
        kind: 'string',
        help: 'port or off',
        env: 'GRPC_PORT',
        accepts: { want: 'a port or off', test: (v: string) => v === 'off' || /^\d+$/.test(v) },
      },
    } as const;
    expect(parseOptions(ports, { args: ['--grpc-port', 'off'] }).values['grpc-port']).toBe('off');
    expect(usage(() => parseOptions(ports, { args: ['--grpc-port', 'x'] }))).toMatchObject({
      flag: 'grpc-port',
      message: '--grpc-port must be a port or off (got "x")',
    });
    expect(usage(() => parseOptions(ports, { args: [], env: { GRPC_PORT: 'x' } })).message).toBe(
      'GRPC_PORT must be a port or off (got "x")',
    );
  });

  it('names the flag in every usage error', () => {
    expect(usage(() => parseOptions(table, { args: ['--max-steps', '0'] }))).toMatchObject({
      flag: 'max-steps',
      message: '--max-steps must be an integer ≥ 1 (got "0")',
    });
    expect(usage(() => parseOptions(table, { args: ['--mode', 'psychic'] })).message).toBe(
      '--mode must be one of oracle, api (got "psychic")',
    );
    expect(usage(() => parseOptions(table, { args: ['--nope'] })).message).toBe('unknown flag --nope');
    expect(usage(() => parseOptions(table, { args: ['--temperature'] })).message).toMatch(/--temperature/);
    expect(usage(() => parseOptions(table, { args: ['stray'] })).message).toMatch(/unexpected argument "stray"/);
  });

  it('reads the first of several environment variables that is set, and names it in a bad value', () => {
    const ports = defineOptions({
      port: { kind: 'integer', help: 'port', min: 0, env: ['PORT', 'LEGACY_PORT'] },
      headless: { kind: 'boolean', help: 'no window', default: true, env: 'HEADLESS' },
    });
    const parse = (env: NodeJS.ProcessEnv, ...args: string[]) => parseOptions(ports, { args, env }).values;
    expect(parse({ LEGACY_PORT: '9' }).port).toBe(9);
    expect(parse({ PORT: '8', LEGACY_PORT: '9' }).port).toBe(8);
    expect(parse({ PORT: '', LEGACY_PORT: '9' }).port).toBe(9);
    expect(parse({ PORT: 'x' }, '--port', '7').port).toBe(7);
    expect(usage(() => parse({ LEGACY_PORT: 'x' }))).toMatchObject({
      flag: 'port',
      message: 'LEGACY_PORT must be an integer ≥ 0 (got "x")',
    });
    expect(usage(() => parse({}, '--port', 'x')).message).toBe('--port must be an integer ≥ 0 (got "x")');
    // Switches as deployments write them.
    expect(parse({ HEADLESS: ' False ' }).headless).toBe(false);
    expect(parse({ HEADLESS: 'off' }).headless).toBe(false);
    expect(parse({ HEADLESS: 'YES' }).headless).toBe(true);
    expect(usage(() => parse({ HEADLESS: 'maybe' })).message).toBe('HEADLESS must be true or false (got "maybe")');
  });

  it('reads integers only as digits and checks exclusive and inclusive bounds', () => {
    const bounds = defineOptions({
      seed: { kind: 'integer', help: 'seed', min: 0 },
      lr: { kind: 'number', help: 'learning rate', above: 0 },
      frac: { kind: 'number', help: 'a fraction', above: 0, max: 1 },
    });
    const parse = (...args: string[]) => parseOptions(bounds, { args }).values;
    expect(parse('--seed', '7', '--lr', '1e-4', '--frac', '1')).toEqual({ seed: 7, lr: 1e-4, frac: 1 });
    for (const seed of ['1.5', '1e3', '0x10', '-1'])
      expect(usage(() => parse(`--seed=${seed}`))).toMatchObject({
        flag: 'seed',
        message: `--seed must be an integer ≥ 0 (got "${seed}")`,
      });
    expect(usage(() => parse('--lr', '0')).message).toBe('--lr must be a number > 0 (got "0")');
    expect(usage(() => parse('--lr', 'fast')).message).toBe('--lr must be a number > 0 (got "fast")');
    expect(usage(() => parse('--frac', '1.5')).message).toBe('--frac must be a number > 0 and ≤ 1 (got "1.5")');
  });

  it('rejects a config file with unknown keys or bad JSON, naming --config', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    writeFileSync(join(dir, 'a.json'), '{"colour": 1}');
    writeFileSync(join(dir, 'b.json'), '{');
    expect(usage(() => parseOptions(table, { args: ['--config', join(dir, 'a.json')] })).message).toMatch(
      /^--config .*unknown flag "colour"/,
    );
    expect(usage(() => parseOptions(table, { args: ['--config', join(dir, 'b.json')] }))).toMatchObject({
      flag: 'config',
      message: expect.stringMatching(/b\.json: not valid JSON/),
    });
  });

  it('reads a YAML config (any extension but .json) with snake_case keys; null leaves a flag unset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const file = join(dir, 'run.yaml');
    writeFileSync(
      file,
      ['max_steps: 12', 'temperature: 2.5e-1', 'headed: true', 'tags: [a, b]', 'api-key: null'].join('\n'),
    );
    const { values } = parseOptions(table, { args: ['--config', file, '--tags', 'c'], env: { TEST_API_KEY: 'sk' } });
    expect(values).toEqual({
      mode: 'oracle',
      'max-steps': 12,
      temperature: 0.25,
      'api-key': 'sk',
      headed: true,
      tags: ['c'],
    });
    writeFileSync(join(dir, 'empty.yml'), '# nothing set\n');
    expect(parseOptions(table, { args: ['--config', join(dir, 'empty.yml')] }).values['max-steps']).toBe(30);
  });

  it("names the file when a config value is wrong, and the flag's own error otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    writeFileSync(join(dir, 'bad.yaml'), 'headed: 3\nmax_steps: 0');
    const bad = join(dir, 'bad.yaml');
    expect(usage(() => parseOptions(table, { args: ['--config', bad] }))).toMatchObject({
      flag: 'max-steps',
      message: `--config ${bad}: --max-steps must be an integer ≥ 1 (got 0)`,
    });
    // A flag given on the command line replaces the file's value; the next bad one is still the file's.
    expect(usage(() => parseOptions(table, { args: ['--config', bad, '--max-steps', '5'] }))).toMatchObject({
      flag: 'headed',
      message: `--config ${bad}: --headed must be true or false (got 3)`,
    });
    expect(usage(() => parseOptions(table, { args: ['--config', bad, '--max-steps', 'x'] })).message).toBe(
      '--max-steps must be an integer ≥ 1 (got "x")',
    );
    writeFileSync(join(dir, 'list.yaml'), '[1, 2]');
    expect(usage(() => parseOptions(table, { args: ['--config', join(dir, 'list.yaml')] })).message).toMatch(
      /list\.yaml: must hold a mapping of flag names to values$/,
    );
    expect(usage(() => parseOptions(table, { args: ['--config', join(dir, 'none.yaml')] })).message).toMatch(
      /none\.yaml: cannot read it \(ENOENT\)$/,
    );
    writeFileSync(join(dir, 'broken.yaml'), 'a: [');
    expect(usage(() => parseOptions(table, { args: ['--config', join(dir, 'broken.yaml')] })).message).toMatch(
      /broken\.yaml: not valid YAML/,
    );
  });

  it('checks positionals against their declaration', () => {
    const positionals = [
      { name: 'RUN_A', help: 'a' },
      { name: 'RUN_B', help: 'b' },
    ];
    expect(parseOptions({}, { args: ['x', 'y'], positionals }).positionals).toEqual(['x', 'y']);
    expect(usage(() => parseOptions({}, { args: ['x'], positionals })).message).toBe('missing <RUN_B>');
  });

  it('repeatable lists add up (split at commas unless noSplit); a variadic positional takes the rest', () => {
    const repeat = defineOptions({
      adapter: { kind: 'list', help: 'name=path', repeatable: true },
      folder: { kind: 'list', help: 'folders', repeatable: true, noSplit: true },
    });
    const { values } = parseOptions(repeat, {
      args: ['--adapter', 'a=x,b=y', '--adapter', 'c=z', '--folder', 'one,two', '--folder', 'three'],
    });
    expect(values).toEqual({ adapter: ['a=x', 'b=y', 'c=z'], folder: ['one,two', 'three'] });
    const positionals = [{ name: 'FILE', help: 'files', variadic: true }];
    expect(parseOptions({}, { args: ['a', 'b', 'c'], positionals }).positionals).toEqual(['a', 'b', 'c']);
  });

  it('leaves --config to a table that declares its own config flag', () => {
    const own = defineOptions({ config: { kind: 'string', help: 'YAML file of these options' } });
    const { values } = parseOptions(own, { args: ['--config', 'run.yaml'] });
    expect(values).toEqual({ config: 'run.yaml' });
  });

  it('stops at --help without validating the rest', () => {
    expect(parseOptions(table, { args: ['--mode', 'psychic', '--help'] }).help).toBe(true);
  });
});

describe('parseSeeds', () => {
  it('reads seeds and ranges in order without repeats', () => {
    expect(parseSeeds('3,0-2,2')).toEqual([3, 0, 1, 2]);
    expect(parseSeeds(['0', '5-6'])).toEqual([0, 5, 6]);
  });
  it('names the flag when the spec is wrong', () => {
    expect(usage(() => parseSeeds('4-1')).message).toBe('--seeds: range 4-1 runs backwards');
    expect(usage(() => parseSeeds('x', 'seed')).flag).toBe('seed');
  });
});
