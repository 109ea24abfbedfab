import type { TrajectoryGroup } from '@gauntlet/proto/rollout';
import { resolveGrpoConfig } from '../../train/grpo/index.js';
import {
  processedTokens,
  sdftMetrics,
  sdftUpdate,
  type SdftUpdateOptions,
  type SdftUpdateParts,
} from '../../train/sdft/step.js';
import { untrainableReason, type TokenLimits } from '../admission/trainable.js';
import { distillPairs, type DistillPairOptions } from '../samples/distill-pairs.js';
import type { GroupLearner, PreparedUpdate } from './group-learner.js';

// The schema-level checks GRPO applies (ids in the vocabulary, log-probs and rewards a sampler and
// an env give, lengths within one pass), without its loss's own knobs.
const CHECKS = resolveGrpoConfig({ samplerCorrection: null });

/**
 * SDFT as the rollout loop's learner: every sampled turn of a batch's episodes is a pair (the
 * student's ids, token-exact, and the teacher's prompt with the demonstration), and one
 * sdftUpdate (teacher scoring, KL step, EMA of the teacher) trains on all of them.
 */
export function sdftGroupLearner(o: {
  parts: SdftUpdateParts;
  modelConfig: GroupLearner['modelConfig'];
  pairs: DistillPairOptions;
  update: Omit<SdftUpdateOptions, 'signal'>;
}): GroupLearner {
  return {
    get policy() {
      return o.parts.trainer.policy;
    },
    modelConfig: o.modelConfig,
    untrainable: (group: TrajectoryGroup, limits: TokenLimits) => untrainableReason(group, limits, CHECKS),
    prepare(groups): PreparedUpdate | null {
      const { pairs, unsampled, tooLong } = distillPairs(groups, o.pairs);
      if (pairs.length === 0) return null;
      return {
        metrics: {
          'groups/trained': groups.length,
          'turns/distilled': pairs.length,
          'turns/unsampled': unsampled,
          'turns/too_long': tooLong,
        },
        async train() {
          const result = await sdftUpdate(o.parts, pairs, o.update);
          return sdftMetrics(result, processedTokens(pairs, result));
        },
      };
    },
  };
}
