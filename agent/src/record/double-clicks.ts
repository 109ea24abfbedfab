import type { RecordedStep } from '@gauntlet/proto';

const CLICK = /^click\((.+)\)$/s;
const DOUBLE = /^dblclick\((.+)\)$/s;

/**
 * Adds a recorded step to `steps`, folding a double click into one: the env reports a person's
 * double click as it happens, its first click as `click(bid)` (played at once, as every click is)
 * and then `dblclick(bid)`. BrowserGym's dblclick makes both clicks and the dblclick event
 * itself, so the pair is one `dblclick(bid)` on the page before the first click, with the reward
 * of both — replayed, the page gets the same events it got from the person. Steps are numbered
 * by their place in `steps`. Returns the step as kept.
 */
export function addRecordedStep(steps: RecordedStep[], step: RecordedStep): RecordedStep {
  const last = steps.at(-1);
  const bid = DOUBLE.exec(step.action)?.[1];
  if (last && bid !== undefined && CLICK.exec(last.action)?.[1] === bid) {
    const merged = { ...last, action: step.action, reward: last.reward + step.reward, done: step.done };
    steps[steps.length - 1] = merged;
    return merged;
  }
  const kept = { ...step, index: steps.length };
  steps.push(kept);
  return kept;
}
