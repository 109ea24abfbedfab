import { ValidationError } from '@gauntlet/proto';
import {
  checkDemonstrationTemplate,
  DEFAULT_DEMONSTRATION_TEMPLATE,
  demonstrationText,
  withDemonstration,
} from '@gauntlet/proto/agent';
import type { TemplateMessage } from '../../model/chat-template.js';

/**
 * How the teacher sees a state: the student's own prompt, with the demonstration written into the
 * state's user turn before everything else in it, by the template a demo-conditioned policy reads
 * too. `--teacher-template FILE` replaces this text.
 */
export const DEFAULT_TEACHER_TEMPLATE = DEFAULT_DEMONSTRATION_TEMPLATE;

/** Refuses a template that would leave the demonstration or the state out. */
export const checkTeacherTemplate = checkDemonstrationTemplate;

export { demonstrationText };

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
    i === last ? { ...m, content: withDemonstration(m.content, { text: demonstration, template }) } : m,
  );
}
