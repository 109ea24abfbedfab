import { join } from 'node:path';
import type { LoraAdapter } from '../../../lora/adapter.js';
import type { LoraTrainer } from '../../../train/trainer.js';
import type { CommandIo } from '../../command.js';
import { StepProgress } from '../../progress.js';
import { saveSftCheckpoint, type SftRunFields } from '../sft/checkpoint.js';
import { writeAdapterFolder } from '../sft/output.js';
import type { RecordStep } from '../step-report.js';
import type { TrainingModel } from '../training-model.js';

/** A checkpoint's teacher adapter, beside the student's: resume needs both. */
export const TEACHER_DIR = 'teacher';

/**
 * What sdft reports per step, in process or on rollouts: the metrics.jsonl row, the progress line
 * on stderr (with `note` after it, e.g. the group counts), and with --save-every a checkpoint of
 * the student, the teacher (teacher/) and AdamW.
 */
export class SdftStepLog {
  private readonly progress: StepProgress;
  readonly losses: number[] = [];

  constructor(
    private readonly io: CommandIo,
    private readonly totalSteps: number,
    private readonly record: RecordStep,
  ) {
    this.progress = new StepProgress(totalSteps);
  }

  async step(step: number, metrics: Record<string, number>, note = ''): Promise<void> {
    this.losses.push(metrics['loss']!);
    await this.record(step, metrics);
    const line = this.progress.line({
      step,
      loss: metrics['loss']!,
      lr: metrics['learning_rate']!,
      gradNorm: metrics['grad_norm']!,
      tokens: metrics['num_tokens']!,
    });
    this.io.err(
      `${line}  fwd-kl ${kl(metrics['forward_kl']!)}  rev-kl ${kl(metrics['reverse_kl']!)}  sampled ${metrics['sampled_tokens']}${note}`,
    );
  }

  /** A signal stopped the run: said, and no result (the caller exits 130). */
  interrupted(outDir: string, of: number): null {
    this.io.err(`sdft: interrupted after ${this.losses.length} of ${of} steps; ${outDir} holds no final adapter`);
    return null;
  }

  /** With --save-every N, a checkpoint after every N-th step but the last (the final adapter is written then). */
  async checkpoint(
    o: { outDir: string; saveEvery?: number | undefined; signal: AbortSignal },
    step: number,
    parts: { trainer: LoraTrainer; teacher: LoraAdapter; model: TrainingModel; run: SftRunFields },
  ): Promise<void> {
    if (!o.saveEvery || step % o.saveEvery !== 0 || step >= this.totalSteps || o.signal.aborted) return;
    const dir = join(o.outDir, `checkpoint-${step}`);
    await saveSftCheckpoint(dir, parts.trainer, parts.model, parts.run, (folder) =>
      writeAdapterFolder(join(folder, TEACHER_DIR), parts.teacher, parts.model.baseModel),
    );
    this.io.err(`sdft: saved checkpoint ${dir}`);
  }
}

/** KLs of a nearly trained student are small: four significant digits, not four decimals. */
export const kl = (value: number) => value.toPrecision(4);
