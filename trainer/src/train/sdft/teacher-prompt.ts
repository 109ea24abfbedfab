import { ValidationError } from '@gauntlet/proto';
import type { TemplateMessage } from '../../model/chat-template.js';

/**
 * How the teacher sees a state: the student's own prompt, with the demonstration written into the
 * state's user turn before everything else in it (the turn opens with the goal). `{demonstration}`
 * is the demo's actions, numbered, one per line; `{observation}` is the user turn as the student
 * sees it. `--teacher-template FILE` replaces this text.
 */
export const DEFAULT_TEACHER_TEMPLATE = [
  '# Demonstration',
  'This task was solved before. These actions solved it, in order:',
  '{demonstration}',
  '',
  '{observation}',
].join('\n');

const PLACEHOLDERS = ['{demonstration}', '{observation}'] as const;

/** Refuses a template that would leave the demonstration or the state out. */
export function checkTeacherTemplate(template: string): string {
  const missing = PLACEHOLDERS.filter((p) => !template.includes(p));
  if (missing.length > 0)
    throw new ValidationError(`the teacher template has no ${missing.join(' or ')} (both must appear)`);
  return template;
}

/** The demonstration as the template's `{demonstration}`: `1. click('12')`, one action per line. */
export function demonstrationText(actions: readonly string[]): string {
  return actions.map((action, i) => `${i + 1}. ${action}`).join('\n');
}

/** The teacher's conversation for a state: its last user turn rewritten by the template. */
export function teacherMessages(
  state: readonly TemplateMessage[],
  demonstration: string,
  template: string,
): TemplateMessage[] {
  const last = state.findLastIndex((m) => m.role === 'user');
  if (last < 0)
    throw new ValidationError('a demo state needs a user turn (the observation) to put the demonstration in');
  return state.map((m, i) =>
    i === last
      ? {
          ...m,
          content: template
            .split('{demonstration}')
            .map((part) => part.split('{observation}').join(m.content))
            .join(demonstration),
        }
      : m,
  );
}
