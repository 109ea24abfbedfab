import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConsumedGroup, type TrajectoryGroup } from '@gauntlet/proto/rollout';
import { writeTextFile } from '../../model/files.js';

export interface KeepOptions {
  /** The JSONL file rewritten whole (to a temporary name, then renamed) after each consumed group. */
  path: string;
  /** Groups kept: the newest, at most this many. */
  groups: number;
  /** A token id's text alone (the model's tokenizer); without it the file has ids only. */
  tokenText?: (id: number) => string;
  log(line: string): void;
}

/**
 * `grpo --keep-trajectories N`: the last N groups the trainer consumed, as ConsumedGroup lines,
 * so `gauntlet-agent view` shows what the policy is doing now. The file never holds more than N
 * groups, and a reader never sees it half written. Writes run one at a time and a burst of groups
 * writes once more after the one in progress, never once per group.
 */
export class TrajectoryKeeper {
  private kept: string[] = [];
  private writing: Promise<void> | null = null;
  private dirty = false;
  private failed = false;

  constructor(private readonly o: KeepOptions) {
    if (!(Number.isInteger(o.groups) && o.groups >= 1))
      throw new RangeError(`trajectory keeper: groups must be an integer ≥ 1, got ${o.groups}`);
  }

  /** Takes up the groups a resumed run's file holds (lines that are not ConsumedGroups are dropped). */
  async resume(): Promise<void> {
    const text = await readFile(this.o.path, 'utf8').catch(() => '');
    const lines = text.split('\n').filter((line) => {
      try {
        return ConsumedGroup.safeParse(JSON.parse(line)).success;
      } catch {
        return false;
      }
    });
    this.kept = lines.slice(-this.o.groups).map((line) => `${line}\n`);
  }

  keep(group: TrajectoryGroup, trainerVersion: number, admission: ConsumedGroup['admission']): void {
    const record: ConsumedGroup = {
      trainer_version: trainerVersion,
      consumed_at: new Date().toISOString(),
      admission,
      ...(this.o.tokenText ? { token_texts: this.texts(group, this.o.tokenText) } : {}),
      group,
    };
    this.kept.push(`${JSON.stringify(record)}\n`);
    if (this.kept.length > this.o.groups) this.kept.splice(0, this.kept.length - this.o.groups);
    this.dirty = true;
    this.writing ??= this.write();
  }

  /** Resolves once the file holds every group kept so far. */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async write(): Promise<void> {
    try {
      await mkdir(dirname(this.o.path), { recursive: true });
      while (this.dirty) {
        this.dirty = false;
        await writeTextFile(this.o.path, this.kept.join(''));
      }
      this.failed = false;
    } catch (error) {
      // Training goes on without the file; said once per outage, not once per group.
      if (!this.failed) this.o.log(`cannot write ${this.o.path}: ${(error as Error).message}`);
      this.failed = true;
    } finally {
      this.writing = null;
    }
  }

  private texts(group: TrajectoryGroup, tokenText: (id: number) => string): Record<string, string> {
    const texts: Record<string, string> = {};
    for (const t of group.trajectories)
      for (const turn of t.turns)
        for (const id of [...turn.completion_ids, ...turn.env_ids]) texts[id] ??= tokenText(id);
    return texts;
  }
}
