import type { Tensor } from '../graph.js';
import * as o from '../ops.js';
import { logSoftmax } from './softmax.js';

/**
 * Per-row divergence of a student's next-token distribution from a teacher's, over the last axis:
 *
 *   (1 − mix) · KL(teacher ‖ student) + mix · KL(student ‖ teacher)
 *
 * mix 0 is forward KL (mode covering: the student spreads over all the teacher's choices), mix 1
 * reverse KL (mode seeking: the student keeps to what the teacher finds likely; SDFT's choice).
 * The student comes as logits and is differentiated; the teacher comes as log-probs, a constant.
 *
 * With `support` (int64 [..., k], the teacher's top-k token ids) the student's logits are read at
 * those ids and renormalised over them; `teacherLogProbs` must then be [..., k] over the same ids,
 * renormalised too (see teacherTopK). Without it both are over the whole vocabulary.
 */
export function distillationKl(studentLogits: Tensor, teacherLogProbs: Tensor, mix: number, support?: Tensor): Tensor {
  if (!(mix >= 0 && mix <= 1)) throw new RangeError(`distillationKl: mix must be in [0, 1], got ${mix}`);
  const student = logSoftmax(support ? o.gatherElements(studentLogits, support, -1) : studentLogits, -1);
  const teacher = o.stopGradient(teacherLogProbs);
  const gap = o.sub(student, teacher);
  const terms: Tensor[] = [];
  // KL(t ‖ s) = Σ pₜ (log pₜ − log pₛ) = −Σ pₜ · gap
  if (mix < 1) terms.push(o.mul(o.reduceSum(o.mul(o.exp(teacher), gap), [-1], false), -(1 - mix)));
  // KL(s ‖ t) = Σ pₛ (log pₛ − log pₜ) = Σ pₛ · gap
  if (mix > 0) terms.push(o.mul(o.reduceSum(o.mul(o.exp(student), gap), [-1], false), mix));
  return terms.length === 1 ? terms[0]! : o.add(terms[0]!, terms[1]!);
}
