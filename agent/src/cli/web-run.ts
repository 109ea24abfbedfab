import {
  MAX_WEB_STEPS,
  OriginRefusedError,
  UnknownTaskError,
  ValidationError,
  WEB_TASK,
  type WebTaskOptions,
} from '@gauntlet/proto';
import { UsageError, type CommandContext } from '@gauntlet/proto/cli';
import type { RUN_OPTIONS } from './run-options.js';

type RunValues = CommandContext<typeof RUN_OPTIONS>['values'];
/** The flags webRun reads: `run`'s, of which `record` has a part (no mode, no goal spec; one task). */
type Values = Partial<
  Pick<RunValues, 'url' | 'goal' | 'success-url' | 'success-text' | 'answer' | 'allow-origin' | 'mode' | 'env'>
> &
  Pick<RunValues, 'max-steps'> & { task?: unknown };

/** An open-web run: the env's `web` task with these reset options. */
export interface WebRun {
  task: typeof WEB_TASK;
  options: WebTaskOptions;
  /** What a local `gauntlet-env serve` needs: --url's origin (and --allow-origin's) allowed. */
  envArgs: string[];
}

/** Goal-spec flags and the reset option each fills. */
const SPEC = { 'success-url': 'success_url', 'success-text': 'success_text', answer: 'answer' } as const;
/** Each reset option of the web task and the flag a user fixes when the env refuses it. */
const FLAG_OF: Record<string, string> = { url: 'url', goal: 'goal', max_steps: 'max-steps', ...invert(SPEC) };

/**
 * Reads `--url` and its companions; undefined for a `--task` run. Every conflict is a usage
 * error naming its flag: --url with --task or --mode oracle (no oracle knows an arbitrary page),
 * a goal spec without --url, --allow-origin with --env (that server's operator decides).
 */
export function webRun(v: Values): WebRun | undefined {
  if (v.url === undefined) {
    for (const flag of ['goal', ...Object.keys(SPEC), 'allow-origin'] as const)
      if (v[flag as keyof Values] !== undefined) throw new UsageError(`--${flag} needs --url (an open-web task)`, flag);
    return undefined;
  }
  if (v.task !== undefined) throw new UsageError('--url plays an open-web task: give --url or --task, not both', 'url');
  if (v.mode === 'oracle')
    throw new UsageError('--mode oracle has no oracle for an open-web task (--url): use api, hybrid or local', 'mode');
  if (!v.goal?.trim()) throw new UsageError('--goal is needed with --url (what the agent should do there)', 'goal');
  const origin = httpOrigin(v.url);
  if (!origin)
    throw new UsageError(`--url must be an absolute http:// or https:// URL (got ${JSON.stringify(v.url)})`, 'url');
  if (v['max-steps'] > MAX_WEB_STEPS)
    throw new UsageError(
      `--max-steps is at most ${MAX_WEB_STEPS} with --url (the web task's step budget)`,
      'max-steps',
    );
  if (v.env && v['allow-origin'])
    throw new UsageError(
      "--allow-origin configures the env the agent starts; with --env, that server's own --allow-origin decides",
      'allow-origin',
    );
  const spec: Partial<WebTaskOptions> = {};
  for (const [flag, key] of Object.entries(SPEC)) {
    const value = v[flag as keyof typeof SPEC];
    if (value !== undefined) spec[key] = value;
  }
  return {
    task: WEB_TASK,
    options: { url: v.url, goal: v.goal, ...spec, max_steps: v['max-steps'] },
    envArgs: ['--allow-origin', [origin, ...(v['allow-origin'] ?? [])].join(',')],
  };
}

/**
 * The env refused the web task's options. A refused origin or a start page that does not load is
 * one line naming --url (exit 1: the command line is right, the server or site says no); an
 * option the env finds malformed (a regex that does not compile) names its flag (exit 2).
 */
export function flagWebOptions(error: unknown): void {
  if (!(error instanceof ValidationError)) return;
  if (error instanceof UnknownTaskError && error.issues[0]?.input === WEB_TASK)
    throw new ValidationError(
      `--url: the env server offers no open-web task ("${WEB_TASK}"); it is an older gauntlet-env`,
    );
  const issue = error.issues.find((i) => i.loc[1] === 'options');
  const key = String(issue?.loc[2] ?? '');
  if (error instanceof OriginRefusedError || key === 'url')
    throw new ValidationError(`--url: ${issue?.msg ?? error.message}`);
  const flag = FLAG_OF[key];
  if (flag) throw new UsageError(`--${flag}: ${issue!.msg}`, flag);
}

function httpOrigin(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
}

function invert(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [v, k]));
}
