import { describe, expect, it } from 'vitest';
import { defineCommand } from './command.js';
import { commandHelp, toolHelp } from './help.js';
import { defineOptions } from './option-table.js';

const options = defineOptions({
  task: { kind: 'list', help: 'Task to play', repeatable: true, valueName: 'NAME' },
  'docker-env': { kind: 'list', help: 'Container environment', repeatable: true, noSplit: true },
  adapter: { kind: 'list', help: 'An adapter; repeat it for more', repeatable: true },
  model: { kind: 'string', help: 'Base model', defaultText: 'tiny' },
  port: { kind: 'integer', help: 'Port', default: 8000, env: ['PORT', 'LEGACY_PORT'] },
});
const command = defineCommand({ name: 'go', summary: 's', description: 'd', options, run: async () => 0 });

describe('commandHelp', () => {
  it('says how a repeatable flag takes several values, unless its own help already does', () => {
    const help = commandHelp({ name: 'tool' }, command);
    expect(help).toMatch(/--task NAME +Task to play \(repeatable, or comma-separated\)$/m);
    expect(help).toMatch(/--docker-env A,B +Container environment \(repeatable\)$/m);
    expect(help).toMatch(/--adapter A,B +An adapter; repeat it for more$/m);
    expect(help).toMatch(/--model VALUE +Base model \(default: tiny\)$/m);
    expect(help).toMatch(/--port N +Port \(default: 8000; env PORT, LEGACY_PORT\)$/m);
  });

  it("lists the kit's --config unless the command declares its own", () => {
    expect(commandHelp({ name: 'tool' }, command)).toContain('--config FILE');
    const own = defineCommand({
      name: 'go',
      summary: 's',
      description: 'd',
      options: defineOptions({ config: { kind: 'string', help: 'YAML file', valueName: 'FILE' } }),
      run: async () => 0,
    });
    expect(commandHelp({ name: 'tool' }, own).match(/--config/g)).toHaveLength(1);
  });

  it("lists the tool's own flags and its exit codes when it has its own", () => {
    const tool = {
      name: 'tool',
      description: 'Does things.',
      commands: [command],
      toolOptions: [['-v, --version', 'Print the version']] as const,
      exitCodes: 'Exit codes: 0 done, 1 failed.',
    };
    const help = toolHelp(tool);
    expect(help).toMatch(/^Options:\n {2}-v, --version {2}Print the version$/m);
    expect(help.split('\n').at(-1)).toBe('Exit codes: 0 done, 1 failed.');
    expect(toolHelp({ ...tool, toolOptions: undefined, exitCodes: undefined })).not.toContain('Options:');
  });
});
