import { ValidationError } from '../errors.js';

/**
 * How a policy is shown a demonstration of its task: the demo's actions, numbered, written into
 * an observation (a user turn) before everything else in it (the turn opens with the goal).
 * `{demonstration}` is the demo's actions, one per line; `{observation}` is the turn as it would
 * read without a demonstration. SDFT's teacher and a demo-conditioned policy read the same text.
 */
export const DEFAULT_DEMONSTRATION_TEMPLATE = [
  '# Demonstration',
  'This task was solved before. These actions solved it, in order:',
  '{demonstration}',
  '',
  '{observation}',
].join('\n');

const PLACEHOLDERS = ['{demonstration}', '{observation}'] as const;

/** A demonstration shown to the policy: its text (demonstrationText) and the template that places it. */
export interface DemonstrationView {
  text: string;
  template: string;
}

/** Refuses a template that would leave the demonstration or the observation out. */
export function checkDemonstrationTemplate(template: string): string {
  const missing = PLACEHOLDERS.filter((p) => !template.includes(p));
  if (missing.length > 0)
    throw new ValidationError(`the demonstration template has no ${missing.join(' or ')} (both must appear)`);
  return template;
}

/** The demonstration as the template's `{demonstration}`: `1. click('12')`, one action per line. */
export function demonstrationText(actions: readonly string[]): string {
  return actions.map((action, i) => `${i + 1}. ${action}`).join('\n');
}

/** `observation` with the demonstration written in by the template (`$` signs in either stay literal). */
export function withDemonstration(observation: string, view: DemonstrationView): string {
  return view.template
    .split('{demonstration}')
    .map((part) => part.split('{observation}').join(observation))
    .join(view.text);
}
