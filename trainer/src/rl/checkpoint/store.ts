import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { LoraAdapter } from '../../lora/adapter.js';
import { ADAPTER_WEIGHTS_FILE, loadAdapter, saveAdapter } from '../../lora/peft.js';
import { ADAPTER_CONFIG_FILE } from '../../lora/peft-config.js';
import { parseSafetensors, writeSafetensors } from '../../model/safetensors.js';
import type { WeightMap } from '../../model/weights.js';
import type { PolicyTensors } from '../../train/policy-tensors.js';
import { exists, flush } from '../durable.js';
import { CheckpointError } from './errors.js';
import { momentTensors, parseMoments, readListed, sha256, stateDigest } from './files.js';
import {
  ADAPTER_DIR,
  CHECKPOINT_FORMAT,
  earlierAdapterDir,
  OPTIMIZER_FILE,
  STATE_FILE,
  stateFile,
  WEIGHTS_FILE,
  type CheckpointState,
  type LoadedCheckpoint,
  type StateFile,
} from './state.js';

export interface CheckpointStoreOptions {
  /** Complete checkpoints kept; older ones are removed after each save (default 3). */
  keep?: number;
  log?: (line: string) => void;
}

export interface CheckpointEntry {
  path: string;
  step: number;
  /** Its state.json exists (it may still fail validation on load). */
  complete: boolean;
}

const NAME = /^checkpoint-(\d+)$/;
const TEMPORARY = /^\.checkpoint-\d+\.tmp-(\d+)-[0-9a-f]+$/;
type Trained = NonNullable<StateFile['trained']>;
/** The files of one set of trained tensors: a PEFT folder at `dir`, and the weights file beside it. */
const tensorFiles = (trained: Trained, dir: string, weightsAt: string) => [
  ...(trained.includes('adapter') ? [`${dir}/${ADAPTER_WEIGHTS_FILE}`, `${dir}/${ADAPTER_CONFIG_FILE}`] : []),
  ...(trained.includes('weights') ? [weightsAt] : []),
];
/** Every file state.json must list: the trained tensors, the moments, and each earlier version's tensors. */
const listedFiles = (trained: Trained, earlier: readonly number[]) => [
  ...tensorFiles(trained, ADAPTER_DIR, WEIGHTS_FILE),
  OPTIMIZER_FILE,
  ...earlier.flatMap((v) => tensorFiles(trained, earlierAdapterDir(v), `${earlierAdapterDir(v)}/${WEIGHTS_FILE}`)),
];

function trainedOf(policy: PolicyTensors): Trained {
  const trained: Trained = [];
  if (policy.adapter) trained.push('adapter');
  if (policy.weights?.size) trained.push('weights');
  if (trained.length === 0) throw new RangeError('checkpoint: the run trains nothing (no adapter, no weights)');
  return trained;
}

/**
 * Checkpoints of a run, one folder per step (`checkpoint-00000042/`): the adapter as a PEFT folder
 * and/or the trained base weights as weights.safetensors, AdamW's moments as safetensors and
 * state.json. Each is written in a temporary folder, flushed,
 * and renamed into place, with state.json (holding every file's digest) written last; loading
 * checks it all, so a partial or corrupt checkpoint is an error naming the file, never a silent
 * restart from wrong weights.
 */
export class CheckpointStore {
  readonly dir: string;
  private readonly keep: number;
  private readonly log: (line: string) => void;

  constructor(dir: string, options: CheckpointStoreOptions = {}) {
    this.dir = resolve(dir);
    this.keep = options.keep ?? 3;
    if (!(Number.isInteger(this.keep) && this.keep >= 1))
      throw new RangeError(`checkpoint keep must be an integer ≥ 1, got ${this.keep}`);
    this.log = options.log ?? (() => {});
  }

  async save(state: CheckpointState): Promise<string> {
    if (!Number.isSafeInteger(state.step) || state.step < 0)
      throw new RangeError(`checkpoint step must be a non-negative integer, got ${state.step}`);
    await mkdir(this.dir, { recursive: true });
    const name = `checkpoint-${String(state.step).padStart(8, '0')}`;
    const target = join(this.dir, name);
    const temporary = join(this.dir, `.${name}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    const trained = trainedOf(state);
    const base = { baseModelNameOrPath: state.baseModel ?? null };
    try {
      await writeTensors(temporary, ADAPTER_DIR, WEIGHTS_FILE, state, base);
      await writeSafetensors(join(temporary, OPTIMIZER_FILE), momentTensors(state.optimizer.optimizer), {
        format: 'pt',
      });
      const earlier = state.earlier ?? [];
      for (const e of earlier) {
        const dir = earlierAdapterDir(e.version);
        if (trainedOf(e).join() !== trained.join())
          throw new RangeError(`checkpoint: earlier version ${e.version} holds other tensors than the run trains`);
        await writeTensors(temporary, dir, `${dir}/${WEIGHTS_FILE}`, e, base);
      }
      const files: StateFile['files'] = {};
      for (const file of listedFiles(
        trained,
        earlier.map((e) => e.version),
      )) {
        const bytes = await readFile(join(temporary, file));
        files[file] = { bytes: bytes.byteLength, sha256: sha256(bytes) };
        await flush(join(temporary, file));
      }
      const fields: Omit<StateFile, 'sha256'> = {
        format: CHECKPOINT_FORMAT,
        formatVersion: 2,
        step: state.step,
        version: state.version,
        optimizerStep: state.optimizer.step,
        rngState: state.rngState,
        config: state.config,
        curriculum: state.curriculum,
        counters: state.counters,
        baseModel: state.baseModel ?? null,
        earlierVersions: earlier.map((e) => e.version),
        // Left out for the adapter alone, so such a checkpoint is the same file it always was.
        ...(trained.join() === 'adapter' ? {} : { trained }),
        saved: new Date().toISOString(),
        files,
      };
      const json: StateFile = stateFile.parse({ ...fields, sha256: stateDigest(fields) });
      await writeFile(join(temporary, STATE_FILE), `${JSON.stringify(json, null, 2)}\n`);
      const versionDirs = earlier.map((e) => earlierAdapterDir(e.version));
      const written = [
        STATE_FILE,
        ...((await exists(join(temporary, ADAPTER_DIR))) ? [ADAPTER_DIR] : []),
        ...versionDirs,
        ...(earlier.length ? ['versions'] : []),
        '',
      ];
      for (const path of written) await flush(join(temporary, path));
      if (await exists(target)) await rm(target, { recursive: true, force: true });
      await rename(temporary, target);
      await flush(this.dir);
    } catch (error) {
      await rm(temporary, { recursive: true, force: true });
      throw error;
    }
    await this.prune();
    return target;
  }

  /** Checkpoint folders, newest step first. */
  async list(): Promise<CheckpointEntry[]> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const entries = await Promise.all(
      names.flatMap((name) => {
        const match = NAME.exec(name);
        if (!match) return [];
        const path = join(this.dir, name);
        return [exists(join(path, STATE_FILE)).then((complete) => ({ path, step: Number(match[1]), complete }))];
      }),
    );
    return entries.sort((a, b) => b.step - a.step);
  }

  /** The newest checkpoint that loads and validates; broken ones are logged and skipped. Null when there is none. */
  async latest(): Promise<LoadedCheckpoint | null> {
    for (const entry of await this.list()) {
      if (!entry.complete) {
        this.log(`checkpoint ${entry.path} has no ${STATE_FILE} (incomplete); skipped`);
        continue;
      }
      try {
        return await this.load(entry.path);
      } catch (error) {
        if (!(error instanceof CheckpointError)) throw error;
        this.log(`checkpoint ${entry.path} skipped: ${error.message}`);
      }
    }
    return null;
  }

  /** Reads and checks one checkpoint folder. */
  async load(path: string): Promise<LoadedCheckpoint> {
    const dir = resolve(path);
    const stateJson = join(dir, STATE_FILE);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(stateJson, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CheckpointError(stateJson, code ? `cannot be read (${code}): incomplete checkpoint` : 'is not JSON');
    }
    const parsed = stateFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new CheckpointError(stateJson, `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    const state = parsed.data;
    if (stateDigest(state) !== state.sha256)
      throw new CheckpointError(
        stateJson,
        'its fields do not match the sha256 it recorded of them (edited or corrupt)',
      );
    const trained = state.trained ?? ['adapter'];
    for (const file of listedFiles(trained, state.earlierVersions)) await readListed(dir, state, file);
    const optimizerFile = join(dir, OPTIMIZER_FILE);
    const moments = parseMoments(optimizerFile, await readListed(dir, state, OPTIMIZER_FILE), state.optimizerStep);
    const read = async (at: string, weightsAt: string): Promise<PolicyTensors> => ({
      ...(trained.includes('adapter') ? { adapter: await loadWeights(join(dir, at)) } : {}),
      ...(trained.includes('weights')
        ? { weights: parseWeights(join(dir, weightsAt), await readListed(dir, state, weightsAt)) }
        : {}),
    });
    const current = await read(ADAPTER_DIR, WEIGHTS_FILE);
    const earlier = [];
    for (const version of state.earlierVersions) {
      const at = earlierAdapterDir(version);
      earlier.push({ version, ...(await read(at, `${at}/${WEIGHTS_FILE}`)) });
    }
    return {
      path: dir,
      step: state.step,
      version: state.version,
      ...current,
      optimizer: { step: state.optimizerStep, optimizer: moments },
      rngState: state.rngState,
      config: state.config,
      curriculum: state.curriculum,
      counters: state.counters,
      baseModel: state.baseModel,
      earlier,
    };
  }

  /** Removes complete checkpoints past `keep`, and temporary folders an earlier process left when it died mid-save. */
  private async prune(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const pid = TEMPORARY.exec(name)?.[1];
      if (pid !== undefined && Number(pid) !== process.pid) {
        await rm(join(this.dir, name), { recursive: true, force: true });
        this.log(`checkpoint: removed ${name}, left by an interrupted save`);
      }
    }
    const complete = (await this.list()).filter((e) => e.complete);
    for (const entry of complete.slice(this.keep)) {
      await rm(entry.path, { recursive: true, force: true });
      this.log(`checkpoint ${entry.path} removed (keeping the last ${this.keep})`);
    }
  }
}

/** One set of trained tensors into the temporary checkpoint: a PEFT folder at `at`, the weights file at `weightsAt`. */
async function writeTensors(
  root: string,
  at: string,
  weightsAt: string,
  policy: PolicyTensors,
  base: { baseModelNameOrPath: string | null },
): Promise<void> {
  if (policy.adapter) await saveAdapter(join(root, at), policy.adapter, base);
  if (policy.weights?.size) {
    await mkdir(join(root, at), { recursive: true });
    await writeSafetensors(join(root, weightsAt), policy.weights, { format: 'pt' });
  }
}

/** A checkpoint's weights file (already checked against its digest) as float32 tensors. */
function parseWeights(file: string, bytes: Uint8Array): WeightMap {
  try {
    return parseSafetensors(bytes, file).tensors;
  } catch (error) {
    throw new CheckpointError(file, (error as Error).message);
  }
}

/** A checkpoint's adapter folder as weights (its provenance fields left off); a bad one is a CheckpointError. */
async function loadWeights(dir: string): Promise<LoraAdapter> {
  try {
    const { baseModelNameOrPath: _base, source: _source, ...weights } = await loadAdapter(dir);
    return weights;
  } catch (error) {
    throw new CheckpointError(dir, (error as Error).message);
  }
}
