import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { InfraError } from '@gauntlet/proto';
import { BROWSER_SYSTEM_PROMPT } from '@gauntlet/proto/agent';
import { UsageError, type Progress } from '@gauntlet/proto/cli';
import { endTokenIds } from './end-tokens.js';
import { startTrainerServer, TrainerStartError, type TrainerServer } from './trainer-server.js';

export interface LocalModelOptions {
  /** A base model folder to serve with the trainer; without it, `baseUrl` is a running server. */
  modelDir?: string;
  adapter?: string;
  trainerBin?: string;
  /** Used when there is no `modelDir`: any vLLM-compatible server. */
  baseUrl: string;
  apiKey?: string;
  /** The model to ask on `baseUrl`; default: the server's first. */
  model?: string;
  progress: Progress;
}

export interface LocalModel {
  baseUrl: string;
  /** The name requests use: the adapter's served name, else the base model's. */
  model: string;
  /** The served context (`/v1/models` `max_model_len`), when the server says. */
  maxModelLen?: number;
  /** UTF-8 bytes per token of the served tokenizer on the system prompt (from /tokenize), when it has one. */
  bytesPerToken?: number;
  /** The model folder's end tokens (`--model-dir` only): replies stop on each of them. */
  stopTokenIds?: number[];
  /** Stops the spawned server (nothing when the server was already running). */
  stop(): Promise<void>;
}

/**
 * `--mode local`: serves `--model-dir` (+ `--adapter`) with `gauntlet-trainer serve` on a free
 * loopback port, or uses the vLLM-compatible server at `--base-url`; then reads what the run needs
 * to know about the model. Every failure is one line naming the flag to fix.
 */
export async function openLocalModel(options: LocalModelOptions): Promise<LocalModel> {
  if (!options.modelDir) {
    if (options.adapter)
      throw new UsageError(
        '--adapter needs --model-dir (with --base-url, name the served adapter with --model)',
        'adapter',
      );
    return describeServer(options.baseUrl, options.apiKey, options.model, async () => undefined);
  }
  const modelDir = folder(options.modelDir, 'model-dir', 'config.json');
  const adapter = options.adapter ? folder(options.adapter, 'adapter', 'adapter_config.json') : undefined;
  let server: TrainerServer;
  try {
    server = await startTrainerServer({
      modelDir,
      adapterRoots: adapter ? [adapter] : [],
      progress: options.progress,
      ...(options.trainerBin ? { bin: options.trainerBin } : {}),
    });
  } catch (error) {
    if (!(error instanceof TrainerStartError)) throw error;
    const flag = error.spawnFailed
      ? `--trainer-bin ${options.trainerBin ?? 'gauntlet-trainer'}`
      : `--model-dir ${options.modelDir}`;
    throw new InfraError(`${flag}: ${error.message}`);
  }
  try {
    let name: string | undefined;
    if (adapter) name = await loadAdapter(server.url, adapter, options.adapter!);
    const described = await describeServer(server.url, undefined, name, () => server.stop());
    return { ...described, stopTokenIds: endTokenIds(modelDir) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The folder, absolute and symlinks resolved; a usage error naming the flag when it is not one with `marker`. */
function folder(path: string, flag: string, marker: string): string {
  const full = resolve(path);
  if (!existsSync(full) || !statSync(full).isDirectory())
    throw new UsageError(`--${flag} ${path}: no such folder`, flag);
  if (!existsSync(join(full, marker)))
    throw new UsageError(
      `--${flag} ${path}: not a ${flag === 'adapter' ? 'PEFT adapter' : 'model'} folder (no ${marker})`,
      flag,
    );
  return realpathSync(full);
}

/** Loads the adapter under its folder's name; the server's refusal (e.g. it does not fit the model) names --adapter. */
async function loadAdapter(url: string, path: string, given: string): Promise<string> {
  const name = basename(path).replace(/[^\w.-]/g, '_') || 'adapter';
  const response = await fetch(`${url}/v1/load_lora_adapter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ lora_name: name, lora_path: path }),
    signal: AbortSignal.timeout(120_000),
  });
  if (response.ok) return name;
  const text = await response.text();
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
  } catch {
    // a plain-text refusal: quoted as is
  }
  throw new InfraError(`--adapter ${given}: the model server refused it (${response.status}): ${message}`);
}

/** Reads /v1/models (the model and its context) and /tokenize (how long a token is). */
async function describeServer(
  baseUrl: string,
  apiKey: string | undefined,
  wanted: string | undefined,
  stop: () => Promise<void>,
): Promise<LocalModel> {
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers = { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
  let models: { id: string; max_model_len?: number }[];
  const response = await fetch(`${root}/v1/models`, { headers, signal: AbortSignal.timeout(30_000) }).catch(
    (error: Error & { cause?: { code?: string; message?: string } }) => {
      throw new InfraError(
        `--base-url ${baseUrl}: cannot reach it (${error.cause?.code ?? (error.cause?.message || error.message)})`,
      );
    },
  );
  try {
    if (!response.ok) throw new Error(`/v1/models answered ${response.status}`);
    models = ((await response.json()) as { data?: typeof models }).data ?? [];
  } catch (error) {
    throw new InfraError(`--base-url ${baseUrl}: not a vLLM-compatible server (${(error as Error).message})`);
  }
  const card = wanted ? models.find((m) => m.id === wanted) : models[0];
  if (!card)
    throw new UsageError(
      `--model: ${baseUrl} serves no model ${JSON.stringify(wanted ?? '')} (it serves ${models.map((m) => m.id).join(', ') || 'none'})`,
      'model',
    );
  const bytesPerToken = await measureTokens(root, headers, card.id);
  return {
    baseUrl: `${root}/v1`,
    model: card.id,
    ...(typeof card.max_model_len === 'number' ? { maxModelLen: card.max_model_len } : {}),
    ...(bytesPerToken ? { bytesPerToken } : {}),
    stop,
  };
}

/** Bytes per token on the system prompt; undefined when the server has no /tokenize (then the 4-byte estimate stands). */
async function measureTokens(
  root: string,
  headers: Record<string, string>,
  model: string,
): Promise<number | undefined> {
  const response = await fetch(`${root}/tokenize`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model, prompt: BROWSER_SYSTEM_PROMPT }),
    signal: AbortSignal.timeout(30_000),
  }).catch(() => undefined);
  if (!response?.ok) return undefined;
  const count = ((await response.json()) as { count?: number }).count;
  return count ? Buffer.byteLength(BROWSER_SYSTEM_PROMPT, 'utf8') / count : undefined;
}
