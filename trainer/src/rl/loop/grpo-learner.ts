import type { TrajectoryGroup } from '@gauntlet/proto/rollout';
import { grpoStep, type GrpoLearner } from '../../train/grpo/index.js';
import { untrainableReason, type TokenLimits } from '../admission/trainable.js';
import { groupSamples } from '../samples/convert.js';
import type { GroupLearner, PreparedUpdate } from './group-learner.js';

/** GRPO as the loop's learner: group advantages over each batch's episodes, then grpoStep. */
export function grpoGroupLearner(learner: GrpoLearner): GroupLearner {
  const { config } = learner;
  return {
    get policy() {
      return learner.trainer.policy;
    },
    modelConfig: learner.model.config,
    untrainable: (group: TrajectoryGroup, limits: TokenLimits) => untrainableReason(group, limits, config),
    prepare(groups): PreparedUpdate | null {
      const { samples, skippedEpisodes, splitEpisodes, rewardMetrics, anchorMetrics } = groupSamples(
        groups,
        config.scaleRewards,
        config.advantage === 'gigpo' ? config : undefined,
      );
      if (samples.length === 0) return null;
      return {
        metrics: {
          ...rewardMetrics,
          ...anchorMetrics,
          'episodes/skipped': skippedEpisodes,
          'episodes/split': splitEpisodes,
        },
        train: async () => (await grpoStep(learner, samples)).metrics,
      };
    },
  };
}
