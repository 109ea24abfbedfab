import { join } from 'node:path';
import { InfraError, ValidationError, type ObservationFormat } from '@gauntlet/proto';
import { AGENT_OBSERVATION, runEpisode } from '@gauntlet/proto/agent';
import { defineCommand, parseSeeds, UsageError, type CommandContext } from '@gauntlet/proto/cli';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import { displayMissing } from '../env/headed-env.js';
import { startLocalEnv, type LocalEnv } from '../env/local-env.js';
import { agentPolicy, modelOnly, type AgentMode } from '../policies/agent-policy.js';
import { ChatClient } from '../policies/chat-client.js';
import { RUN_STOPPING_ERRORS } from '../policies/model-errors.js';
import { episodeRecord } from '../report/episode-record.js';
import type { RunMetrics } from '../report/metrics.js';
import { RunFiles } from '../report/run-files.js';
import { TurnCapture } from '../report/turn-capture.js';
import type { EpisodeLog } from '../report/turn-log.js';
import { LOCAL_REPETITION_PENALTY, openLocalRun, type LocalRun } from './local-run.js';
import { RUN_OPTIONS } from './run-options.js';
import { flagWebOptions, webRun, type WebRun } from './web-run.js';

type Context = CommandContext<typeof RUN_OPTIONS>;

/** The Gauntlet's canvas needs coordinates and its oracle chains actions (fill, then submit). */
const GAUNTLET_ACTION_SET = { subsets: ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'], multi_action: true };
const isGauntlet = (task: string) => task === 'gauntlet' || task.startsWith('gauntlet:');

export const runCommand = defineCommand({
  name: 'run',
  summary: "Play tasks with the env's oracle, a chat model, or both; write metrics.json and episodes.jsonl",
  description:
    "Plays every task × seed with one agent and writes <out>/metrics.json (per episode, per Gauntlet step, per task) and <out>/episodes.jsonl (every turn). --mode oracle plays the env's own oracle (sent with each observation); --mode api asks any OpenAI-compatible /v1/chat/completions endpoint (text only: no tokenizer, no logprobs); --mode hybrid plays the oracle and lets the model act where the oracle has no action or is stuck; --mode local serves --model-dir (+ --adapter) with gauntlet-trainer serve, or uses a running vLLM-compatible --base-url, and plays it as api mode does. Without --env, a local gauntlet-env serve is started and stopped. --url URL --goal TEXT plays an open-web task (the env's `web` task; not with --mode oracle): the agent ends it with send_msg_to_user(answer) or report_infeasible(reason); with --success-url, --success-text or --answer (regexes) the final page and answer are judged, without them the episode is `unjudged`, never a success. The local env it starts allows --url's origin (loopback included) and --allow-origin's; a server given with --env allows what its operator allowed.",
  options: RUN_OPTIONS,
  examples: [
    'gauntlet-agent run --task gauntlet --mode oracle --seeds 0',
    'gauntlet-agent run --task click-button,gauntlet:timer --mode api --model gpt-4o-mini --seeds 0-4',
    'gauntlet-agent run --mode hybrid --base-url http://127.0.0.1:8000/v1 --model my-model --out results/hybrid',
    'gauntlet-agent run --mode local --model-dir models/tiny --adapter runs/sft --task click-test --seeds 0-9',
    "gauntlet-agent run --mode api --model gpt-4o-mini --url https://example.com/ --goal 'Find the page title' --answer 'Example Domain'",
  ],
  async run(context) {
    const { values: v, progress, signal } = context;
    const mode = v.mode as AgentMode;
    const seeds = parseSeeds(v.seeds);
    const web = webRun(v);
    const tasks = web ? [web.task] : (v.task ?? ['gauntlet']);
    if (tasks.length === 0) throw new UsageError('--task: no task given', 'task');
    const noDisplay = v.headed && !v.env ? displayMissing('--headed') : undefined;
    if (noDisplay) throw noDisplay;
    // local: the model server is up (or known) before anything else starts, and stopped last.
    const model = mode === 'local' ? await openLocalRun(context) : undefined;
    if (model) v['context-tokens'] = model.contextTokens;
    if (v.constrained && mode === 'oracle')
      throw new UsageError('--constrained shapes what a model writes: not with --mode oracle', 'constrained');
    if (v['text-choices'] && !v.constrained)
      throw new UsageError('--text-choices narrows constrained replies: give --constrained too', 'text-choices');
    const chat = mode === 'oracle' ? undefined : chatClient(context, model);
    const out = v.out ?? join('results', `${mode}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    let local: LocalEnv | undefined;
    const envArgs = [...(web?.envArgs ?? []), ...(v.headed ? ['--allow-headed'] : [])];
    if (!v.env)
      local = await startLocalEnv({ bin: v['env-bin'], progress, extraArgs: envArgs }).catch(stopModel(model));
    const envUrl = v.env ?? local!.url;
    const env = createEnvClient(envUrl, { token: v['env-token'], callTimeoutMs: 120_000 });
    const files = new RunFiles(out, {
      mode,
      env: local ? 'local' : envUrl,
      model: chat?.settings.model ?? null,
      base_url: chat?.settings.baseUrl ?? null,
      tasks,
      ...(web ? { web: web.options } : {}),
      seeds,
      constrained: v.constrained,
      text_choices: v['text-choices'],
      observation_format: v['observation-format'],
      started_at: new Date().toISOString(),
      ...model?.info,
    });
    progress(`${mode} on ${web ? `${web.options.url} (web)` : tasks.join(', ')} × ${seeds.length} seed(s) → ${out}`);
    let totals: RunMetrics['totals'] | undefined;
    try {
      for (const task of tasks)
        for (const seed of seeds) {
          if (signal.aborted) return 130;
          const stop = await playOne(context, env, chat, files, task, seed, web).catch(flagTheTask);
          if (stop) throw stop;
          if (files.records.length === 1 && files.records[0]!.turns.length === 0 && !chatError(files))
            envUnreachable(files, envUrl);
        }
    } finally {
      totals = files.writeMetrics({ finished_at: new Date().toISOString() }).totals;
      await env.close().catch(() => undefined);
      await local?.stop();
      await model?.model.stop();
    }
    const t = totals;
    const unjudged = t.unjudged ? `, ${t.unjudged} unjudged (no goal spec)` : '';
    context.io.out(
      `${t.successes}/${t.episodes} episodes succeeded${unjudged} (${t.steps} steps, ${t.model_calls} model calls, ${t.tokens_in + t.tokens_out} tokens) → ${join(out, 'metrics.json')}`,
    );
    return 0;
  },
});

/** Plays one episode and records it; returns the error that must stop the run, if any. */
async function playOne(
  { values: v, progress, signal }: Context,
  env: EnvClient,
  chat: ChatClient | undefined,
  files: RunFiles,
  task: string,
  seed: number,
  web: WebRun | undefined,
): Promise<Error | undefined> {
  const log: EpisodeLog = [];
  const gauntlet = isGauntlet(task);
  const policy = agentPolicy(
    {
      mode: v.mode as AgentMode,
      chat,
      contextTokens: v['context-tokens'],
      oracleStepActions: v['oracle-step-actions'],
      maxParseErrors: v['max-parse-errors'],
      multiAction: gauntlet,
      constrained: v.constrained,
      textChoices: v['text-choices'],
    },
    log,
  );
  // The viewer needs the page (screenshot) and the element boxes to draw the action on it.
  const capture = v.screenshots ? new TurnCapture(files.dir, files.records.length) : undefined;
  const pictures = capture ? ({ screenshot: 'png', extra_properties: true } as const) : {};
  const trajectory = await runEpisode(env, policy, {
    task,
    seed,
    // An open-web page has no oracle: hybrid's model acts on every turn.
    observation: { ...AGENT_OBSERVATION, ...pictures, oracle_action: !modelOnly(v.mode as AgentMode) && !web },
    ...(web ? { resetOptions: web.options } : {}),
    ...(gauntlet ? { actionSet: GAUNTLET_ACTION_SET } : {}),
    ...(v.headed ? { browser: { headed: true } } : {}),
    render: { format: v['observation-format'] as ObservationFormat },
    maxTurns: v['max-steps'],
    deadlineMs: v['episode-timeout'] * 1000,
    signal,
    ...(capture ? { onResult: capture.onResult } : {}),
  });
  const record = episodeRecord(trajectory, log);
  const metrics = files.add(capture ? capture.annotate(record) : record);
  const e = metrics.episodes.at(-1)!;
  const solved = e.gauntlet ? `, ${e.gauntlet.solved}/${e.gauntlet.total} steps solved` : '';
  const who = `oracle ${e.oracle_steps}, model ${e.model_steps}`;
  progress(
    `${task} seed ${seed}: ${e.outcome} in ${e.steps} steps (${who}${solved}, ${(e.episode_wall_ms / 1000).toFixed(1)} s)${e.error ? ` — ${e.error}` : ''}`,
  );
  if (trajectory.error && RUN_STOPPING_ERRORS.has(trajectory.error.name))
    return new InfraError(trajectory.error.message);
  return undefined;
}

/** The env refused the task name (a usage error naming --task) or the web task's options (naming their flag). */
function flagTheTask(error: unknown): never {
  flagWebOptions(error);
  if (error instanceof ValidationError && error.issues.some((i) => i.loc.includes('task_name')))
    throw new UsageError(`--task: ${error.message}`, 'task');
  throw error;
}

const chatError = (files: RunFiles) => files.records[0]!.error?.name.startsWith('Model') ?? false;

/** The very first reset failed outright: the env is wrong (URL, token, not running), not this episode. */
function envUnreachable(files: RunFiles, url: string): void {
  const error = files.records[0]!.error;
  if (files.records[0]!.outcome === 'infra_error' && error) throw new InfraError(`--env ${url}: ${error.message}`);
}

function chatClient({ values: v }: Context, local?: LocalRun): ChatClient {
  const penalty = v['repetition-penalty'] ?? (local ? LOCAL_REPETITION_PENALTY : undefined);
  if (local)
    return new ChatClient({
      ...chatSettings(v),
      baseUrl: local.model.baseUrl,
      model: local.model.model,
      repetitionPenalty: penalty!,
      ...(local.model.stopTokenIds ? { stopTokenIds: local.model.stopTokenIds } : {}),
    });
  if (!v.model) throw new UsageError(`--model is needed with --mode ${v.mode} (or set OPENAI_MODEL)`, 'model');
  try {
    new URL(v['base-url']);
  } catch {
    throw new UsageError(`--base-url must be a URL (got ${JSON.stringify(v['base-url'])})`, 'base-url');
  }
  return new ChatClient({
    ...chatSettings(v),
    baseUrl: v['base-url'],
    model: v.model,
    ...(penalty === undefined ? {} : { repetitionPenalty: penalty }),
  });
}

function chatSettings(v: Context['values']) {
  return {
    apiKey: v['api-key'],
    temperature: v.temperature,
    topP: v['top-p'],
    maxTokens: v['max-tokens'],
    callTimeoutMs: v['call-timeout'] * 1000,
    retries: v.retries,
    backoffMs: v['backoff-ms'],
  };
}

/** Stops the local model server when what comes after it fails to start. */
const stopModel =
  (model: LocalRun | undefined) =>
  async (error: unknown): Promise<never> => {
    await model?.model.stop();
    throw error;
  };
