import { distillationKl } from '../../engine/composites/distill.js';
import * as o from '../../engine/ops.js';
import type { LossFn } from '../loss.js';

/** Row inputs the SDFT loss reads: the teacher's log-probs per trained position, and with top-k their ids. */
export const TEACHER_LOGPROBS = 'teacher_logprobs';
export const TEACHER_IDS = 'teacher_ids';

export interface SdftLossOptions {
  /** 0 = forward KL(teacher ‖ student), 1 = reverse KL(student ‖ teacher); in between, a mix of the two. */
  mix: number;
  /** The vocabulary size: the width of the teacher's rows when the whole vocabulary is used. */
  vocab: number;
  /** Distil on the teacher's top k tokens only (both renormalised there); absent: the whole vocabulary. */
  topK?: number | undefined;
}

/**
 * Self-distillation: the mean over the student's sampled tokens of the per-token KL mix between
 * the student's next-token distribution and the teacher's (fed as row inputs, no gradient).
 * Reports both directions as metrics, whatever the mix, so runs with different mixes compare.
 */
export function sdftLoss(options: SdftLossOptions): LossFn {
  return {
    name: 'sdft',
    build(ctx) {
      const { logits, mask } = ctx.scoredRows();
      const width = options.topK ?? options.vocab;
      const teacher = ctx.rowInput(TEACHER_LOGPROBS, width);
      const ids = options.topK ? ctx.rowInput(TEACHER_IDS, options.topK, 'int64') : undefined;
      const mean = (kl: ReturnType<typeof distillationKl>) =>
        o.div(o.reduceSum(o.mul(kl, mask), [], false), ctx.totalTokens());
      return {
        loss: mean(distillationKl(logits, teacher, options.mix, ids)),
        metrics: {
          forward_kl: mean(distillationKl(o.stopGradient(logits), teacher, 0, ids)),
          reverse_kl: mean(distillationKl(o.stopGradient(logits), teacher, 1, ids)),
        },
      };
    },
  };
}
