import { OBSERVATION_FORMATS } from '@gauntlet/proto';
import { defineOptions, UsageError } from '@gauntlet/proto/cli';
import { CHALLENGE_TYPES } from '../tasks/gauntlet/challenges/index.js';
import { GAUNTLET_STEPS } from '../tasks/gauntlet/plan.js';

/** `gauntlet`, `gauntlet:timer,gauntlet:audio`, or `gauntlet:*` (every challenge type). */
export function parseTasks(spec: string): string[] {
  const tasks = spec
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .flatMap((t) => (t === 'gauntlet:*' ? CHALLENGE_TYPES.map((type) => `gauntlet:${type}`) : [t]));
  for (const task of tasks) {
    if (
      task !== 'gauntlet' &&
      !(task.startsWith('gauntlet:') && (CHALLENGE_TYPES as readonly string[]).includes(task.slice(9)))
    ) {
      throw new UsageError(
        `--task: "${task}" is not a Gauntlet task (gauntlet, gauntlet:<type> or gauntlet:*; types: ${CHALLENGE_TYPES.join(', ')})`,
        'task',
      );
    }
  }
  return tasks;
}

/** The flags `solve` and `collect` share: which episodes to play and on what. */
export const SWEEP_OPTIONS = defineOptions({
  task: {
    kind: 'string',
    help: 'gauntlet, gauntlet:<type>, a comma list, or gauntlet:* for every type',
    default: 'gauntlet',
    valueName: 'LIST',
  },
  seeds: { kind: 'string', help: 'Seeds: 7, 0-99, or 0-9,20-29', default: '0-9', valueName: 'SPEC' },
  concurrency: { kind: 'integer', help: 'Sessions played at once', default: 2, min: 1 },
  'start-step': {
    kind: 'integer',
    help: 'Start full runs at step N (the built-in oracle plays the steps before it)',
    min: 1,
    max: GAUNTLET_STEPS,
  },
  'chromium-path': {
    kind: 'string',
    help: 'Chromium binary',
    defaultText: "Playwright's, CHROMIUM_PATH, or Debian's",
    valueName: 'PATH',
  },
});

export const SOLVE_OPTIONS = defineOptions({
  ...SWEEP_OPTIONS,
  out: {
    kind: 'string',
    help: 'Also write DIR/metrics.json (per step and per type: success, actions, time)',
    valueName: 'DIR',
  },
  json: { kind: 'boolean', help: 'Print the metrics JSON on stdout instead of the summary table' },
});

export const COLLECT_OPTIONS = defineOptions({
  out: { kind: 'string', help: 'Output folder (required)', valueName: 'DIR' },
  ...SWEEP_OPTIONS,
  task: {
    ...SWEEP_OPTIONS.task,
    help: `${SWEEP_OPTIONS.task.help}; or miniwob, miniwob.*, miniwob.<name>,… for the built-in MiniWoB tasks`,
  },
  'observation-format': {
    kind: 'string',
    help: "How prompts render observations: axtree (BrowserGym's tree as the env sends it) or pruned (interactive elements and nearby text; train and run a policy on the same format)",
    choices: OBSERVATION_FORMATS,
    default: 'axtree',
    valueName: 'FORMAT',
  },
  'no-dpo': { kind: 'boolean', help: 'Skip the preference pairs (one extra probe episode per seed)' },
  'dpo-per-step': { kind: 'integer', help: 'Rejected actions tried per step in the probe episode', default: 2, min: 1 },
});
