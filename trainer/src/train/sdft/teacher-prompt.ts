import { ValidationError } from '@gauntlet/proto';
import { withDemonstration } from '@gauntlet/proto/agent';
import type { TemplateMessage } from '../../model/chat-template.js';

/**
 * The teacher's conversation for a state: the student's own prompt, with the demonstration written
 * into its last user turn by the template a demo-conditioned policy reads too (proto's
 * DEFAULT_DEMONSTRATION_TEMPLATE unless `--teacher-template FILE` replaces it).
 */
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
