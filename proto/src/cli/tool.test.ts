import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { defineCommand, type Tool } from './command.js';
import { runTool } from './tool.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

const greet = defineCommand({
  name: 'greet',
  summary: 'Say hello',
  description: 'Says hello to someone.',
  options: {
    name: { kind: 'string', help: 'who', default: 'world', env: 'GREET_NAME' },
    times: { kind: 'integer', help: 'how often', default: 1, min: 1 },
    fail: { kind: 'boolean', help: 'fail on purpose' },
  },
  examples: ['demo greet --name Ada'],
  async run({ values, io, progress }) {
    if (values.fail) throw new ValidationError('the greeting was refused');
    progress(`greeting ${values.name}`);
    for (let i = 0; i < values.times; i++) io.out(`hello ${values.name}`);
  },
});
const tool: Tool = { name: 'demo', description: 'A demo tool.', commands: [greet] };

describe('runTool', () => {
  it('runs a command: results on stdout, progress on stderr', async () => {
    const c = capture();
    expect(await runTool(tool, ['greet', '--times', '2'], { io: c.io, env: { GREET_NAME: 'env' } })).toBe(0);
    expect(c.out).toEqual(['hello env', 'hello env']);
    expect(c.err).toEqual(['[demo greet] greeting env']);
  });

  it('writes --help from the option table', async () => {
    const c = capture();
    expect(await runTool(tool, ['greet', '--help'], { io: c.io })).toBe(0);
    const help = c.out.join('\n');
    expect(help).toContain('Usage: demo greet [options]');
    expect(help).toMatch(/--name VALUE +who \(default: world; env GREET_NAME\)/);
    expect(help).toMatch(/--times N +how often \(default: 1\)/);
    expect(help).toContain('--config FILE');
    expect(help).toContain('demo greet --name Ada');
  });

  it('a usage error is one line naming the flag, exit 2', async () => {
    const c = capture();
    expect(await runTool(tool, ['greet', '--times', 'two'], { io: c.io })).toBe(2);
    expect(c.err).toEqual(['demo greet: --times must be an integer ≥ 1 (got "two") (see --help)']);
  });

  it('runs the default command when none is named, and says which it is in the tool help', async () => {
    const served: Tool = { ...tool, defaultCommand: 'greet' };
    const c = capture();
    expect(await runTool(served, [], { io: c.io, env: {} })).toBe(0);
    expect(await runTool(served, ['--name', 'Ada'], { io: c.io, env: {} })).toBe(0);
    expect(c.out).toEqual(['hello world', 'hello Ada']);
    expect(await runTool(served, ['--times', 'x'], { io: c.io })).toBe(2);
    expect(c.err.at(-1)).toBe('demo greet: --times must be an integer ≥ 1 (got "x") (see --help)');
    expect(await runTool(served, ['--help'], { io: c.io })).toBe(0);
    expect(c.out.at(-1)).toMatch(/^Usage: demo \[command\] \[options\]/);
    expect(c.out.at(-1)).toMatch(/greet +Say hello \(the default command\)/);
    // Without a default command, a bare tool is a usage error that shows the commands.
    expect(await runTool(tool, [], { io: c.io })).toBe(2);
    expect(c.err.at(-1)).toMatch(/^Usage: demo <command> \[options\]/);
  });

  it('leaves SIGINT / SIGTERM to a command that owns them', async () => {
    const listening = (owns: boolean) =>
      defineCommand({
        name: 'serve',
        summary: 's',
        description: 'd',
        options: {},
        ownsSignals: owns,
        run: async () => process.listenerCount('SIGTERM'),
      });
    const before = process.listenerCount('SIGTERM');
    const served = (owns: boolean): Tool => ({ ...tool, commands: [listening(owns)] });
    expect(await runTool(served(true), ['serve'], { io: capture().io })).toBe(before);
    expect(await runTool(served(false), ['serve'], { io: capture().io })).toBe(before + 1);
  });

  it('an expected error is one line, exit 1; an unknown command is exit 2', async () => {
    const c = capture();
    expect(await runTool(tool, ['greet', '--fail'], { io: c.io })).toBe(1);
    expect(c.err).toEqual(['demo greet: the greeting was refused']);
    expect(await runTool(tool, ['wave'], { io: c.io })).toBe(2);
    expect(c.err.at(-1)).toMatch(/unknown command "wave"/);
    expect(await runTool(tool, ['gret'], { io: c.io })).toBe(2);
    expect(c.err.at(-1)).toMatch(/unknown command "gret" \(did you mean greet\?\)/);
  });
});
