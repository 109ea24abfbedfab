import { describe, expect, it } from 'vitest';
import { defineCommand } from './command.js';
import { commandHelp } from './help.js';
import { defineOptions } from './option-table.js';

const options = defineOptions({
  task: { kind: 'list', help: 'Task to play', repeatable: true, valueName: 'NAME' },
  'docker-env': { kind: 'list', help: 'Container environment', repeatable: true, noSplit: true },
  adapter: { kind: 'list', help: 'An adapter; repeat it for more', repeatable: true },
  model: { kind: 'string', help: 'Base model', defaultText: 'tiny' },
});
const command = defineCommand({ name: 'go', summary: 's', description: 'd', options, run: async () => 0 });

describe('commandHelp', () => {
  it('says how a repeatable flag takes several values, unless its own help already does', () => {
    const help = commandHelp({ name: 'tool' }, command);
    expect(help).toMatch(/--task NAME +Task to play \(repeatable, or comma-separated\)$/m);
    expect(help).toMatch(/--docker-env A,B +Container environment \(repeatable\)$/m);
    expect(help).toMatch(/--adapter A,B +An adapter; repeat it for more$/m);
    expect(help).toMatch(/--model VALUE +Base model \(default: tiny\)$/m);
  });

  it("lists the kit's --config unless the command declares its own", () => {
    expect(commandHelp({ name: 'tool' }, command)).toContain('--config FILE');
    const own = defineCommand({
      ...command,
      options: defineOptions({ config: { kind: 'string', help: 'YAML file', valueName: 'FILE' } }),
    });
    expect(commandHelp({ name: 'tool' }, own).match(/--config/g)).toHaveLength(1);
  });
});
