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

/** The demonstration as the template's `{demonstration}`: `1. click('12') on button 'OK'`, one action per line. */
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

/** A conversation's turn, as much of it as a demonstration reads. */
type Turn = { role: string; content: string };

/** The element id an action names first: `click('12')`, `fill("7", …)`. */
const ACTION_BID = /^\s*[a-z_]+\(\s*(['"])([^'"\n]{1,64})\1/;
/** Longest element description kept: a tree line past it is mostly text no action depends on. */
const MAX_ELEMENT_CHARS = 80;

/**
 * The actions a demonstration took (its assistant turns), each with the element it acted on as
 * the observation before it showed that element (`click('8') on button '×'`). Element ids differ
 * from one seed of a task to the next, while an element's role and name mostly carry over, so the
 * description is what lets a policy follow a demo on another seed. An action whose element the
 * observation does not show stays as written.
 */
export function demonstratedActions(turns: readonly Turn[]): string[] {
  let observation = '';
  const actions: string[] = [];
  for (const turn of turns) {
    if (turn.role === 'user') observation = turn.content;
    if (turn.role !== 'assistant') continue;
    const element = actedOn(turn.content, observation);
    actions.push(element === undefined ? turn.content : `${turn.content} on ${element}`);
  }
  return actions;
}

/** The tree line of the element `action` names, without its `[bid]`, or undefined. */
function actedOn(action: string, observation: string): string | undefined {
  const bid = ACTION_BID.exec(action)?.[2];
  if (bid === undefined || action.trim().includes('\n')) return undefined;
  const marker = `[${bid}] `;
  for (const line of observation.split('\n')) {
    const trimmed = line.trimStart();
    if (!trimmed.startsWith(marker)) continue;
    const element = trimmed.slice(marker.length).trim();
    if (element === '') return undefined;
    return element.length > MAX_ELEMENT_CHARS ? `${element.slice(0, MAX_ELEMENT_CHARS - 1)}…` : element;
  }
  return undefined;
}
