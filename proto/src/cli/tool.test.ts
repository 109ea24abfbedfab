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

describe('runTool: tool flags and help', () => {
  it('prints the version for -v / --version when the tool has one', async () => {
    const c = capture();
    expect(await runTool({ ...tool, version: '1.2.3' }, ['-v'], { io: c.io })).toBe(0);
    expect(await runTool({ ...tool, version: '1.2.3' }, ['--version'], { io: c.io })).toBe(0);
    expect(c.out).toEqual(['1.2.3', '1.2.3']);
    // Without one, --version is a flag before any command: a usage error that says where flags go.
    expect(await runTool(tool, ['--version'], { io: c.io })).toBe(2);
    expect(c.err.at(-1)).toBe('demo: unknown flag --version (flags go after the command name; see --help)');
  });

  it('takes `help <command>` as `<command> --help`, and `help` alone as --help', async () => {
    const c = capture();
    expect(await runTool(tool, ['help', 'greet'], { io: c.io })).toBe(0);
    expect(c.out.at(-1)).toContain('Usage: demo greet [options]');
    expect(await runTool(tool, ['help'], { io: c.io })).toBe(0);
    expect(c.out.at(-1)).toMatch(/^Usage: demo <command> \[options\]/);
    expect(await runTool(tool, ['help', 'gret'], { io: c.io })).toBe(2);
    expect(c.err.at(-1)).toMatch(/unknown command "gret" \(did you mean greet\?\)/);
  });

  it('a ValidationError is a usage error (exit 2) for a tool that says so', async () => {
    const c = capture();
    expect(await runTool({ ...tool, validationIsUsage: true }, ['greet', '--fail'], { io: c.io })).toBe(2);
    expect(c.err).toEqual(['demo greet: the greeting was refused (see --help)']);
  });
});

describe('runTool: interrupts', () => {
  /** Interrupts sent by hand, and a command that waits until it is told to finish. */
  function rig() {
    let send = () => {};
    const interrupts = (listener: () => void) => ((send = listener), () => (send = () => {}));
    let finish!: (code: number) => void;
    let begin!: (signal: AbortSignal) => void;
    const started = new Promise<AbortSignal>((resolve) => (begin = resolve));
    const waits = (extra: Partial<Parameters<typeof defineCommand>[0]> = {}) =>
      defineCommand({
        name: 'wait',
        summary: 's',
        description: 'd',
        options: {},
        ...extra,
        run: ({ signal }) => (begin(signal), new Promise<number>((resolve) => (finish = resolve))),
      });
    return { interrupts, send: () => send(), finish: (code: number) => finish(code), started, waits };
  }

  it('the first interrupt aborts the signal and the command ends at its safe point: 130', async () => {
    const r = rig();
    const c = capture();
    const running = runTool({ ...tool, commands: [r.waits()] }, ['wait'], { io: c.io, interrupts: r.interrupts });
    const signal = await r.started;
    r.send();
    expect(signal.aborted).toBe(true);
    r.finish(0);
    expect(await running).toBe(130);
  });

  it('a draining command keeps its own exit code after an interrupt', async () => {
    const r = rig();
    const running = runTool({ ...tool, commands: [r.waits({ drains: true })] }, ['wait'], {
      io: capture().io,
      interrupts: r.interrupts,
    });
    await r.started;
    r.send();
    r.finish(0);
    expect(await running).toBe(0);
  });

  it('a second interrupt ends the run at once with 130, leaving the command behind', async () => {
    const r = rig();
    const c = capture();
    const running = runTool({ ...tool, commands: [r.waits({ drains: true })] }, ['wait'], {
      io: c.io,
      interrupts: r.interrupts,
    });
    await r.started;
    r.send();
    r.send();
    expect(await running).toBe(130);
    expect(c.err).toEqual(['demo wait: interrupted again; stopping now']);
  });

  it('prepare extends the context, and its stopNow turns the first interrupt into "stop now"', async () => {
    const r = rig();
    const c = capture();
    let seen: unknown;
    const down = { value: false };
    const prepared: Tool = {
      ...tool,
      commands: [
        defineCommand({
          name: 'wait',
          summary: 's',
          description: 'd',
          options: {},
          run: (context) => ((seen = (context as { extra?: string }).extra), new Promise<number>(() => {})),
        }),
      ],
      prepare: () => ({ context: { extra: 'watches' }, stopNow: () => (down.value ? 'the store is down' : undefined) }),
    };
    down.value = true;
    const running = runTool(prepared, ['wait'], { io: c.io, interrupts: r.interrupts });
    await Promise.resolve();
    r.send();
    expect(await running).toBe(130);
    expect(seen).toBe('watches');
    expect(c.err).toEqual(['demo wait: the store is down']);
  });
});
