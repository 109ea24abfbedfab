import { defineCommand } from '@gauntlet/proto/cli';
import { SETTING_OPTIONS } from '../config.js';
import { configAsUsage, configFrom } from './serve-command.js';

export const tasksCommand = defineCommand({
  name: 'tasks',
  summary: 'List the tasks serve would offer (the MiniWoB++ flags count)',
  description:
    'Prints one line per task serve would offer with the same flags and environment: <benchmark>.<name>, its [flags] (e.g. realtime), a tab, its description.',
  options: SETTING_OPTIONS,
  examples: [
    'npx gauntlet-env tasks',
    'npx gauntlet-env tasks --miniwob-dir /path/to/miniwob-plusplus/miniwob/html/miniwob',
  ],
  async run({ values, io }) {
    const config = await configFrom(values);
    const { TaskRegistry } = await import('../tasks/registry.js');
    const { taskFamilies } = await import('../tasks/families.js');
    const registry = await configAsUsage(() => new TaskRegistry(taskFamilies(config)));
    for (const task of registry.list()) {
      const flags = task.flags?.length ? ` [${task.flags.join(', ')}]` : '';
      io.out(`${task.benchmark}.${task.name}${flags}\t${task.description}`);
    }
  },
});
