import type { RuntimeOptions } from '../../../engine/runtime.js';
import type { SdftUpdateParts } from '../../../train/sdft/step.js';
import type { ResumedSft, SftRunFields } from '../sft/checkpoint.js';
import type { TrainingModel } from '../training-model.js';

/** What both ways of sampling train with: the model, the sessions, the run's fields, a checkpoint resumed. */
export interface SdftRun {
  model: TrainingModel;
  parts: SdftUpdateParts;
  run: SftRunFields;
  resumed: ResumedSft | undefined;
  runtime: RuntimeOptions;
  /** Opens a session that is released however the run ends. */
  open<T extends { release(): Promise<void> }>(session: T): T;
}
