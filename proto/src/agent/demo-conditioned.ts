import { demonstrationText, withDemonstration } from './demonstration.js';

/** A conversation's message, as much of it as a demonstration reads. */
type Message = { role: string; content: string };

/**
 * An SFT record as `gauntlet-env collect` writes it: one solved episode (or Gauntlet step) of one
 * task and seed. `task` is what a demonstration must share: the task, or the task and step type.
 */
export interface EpisodeRecord<M extends Message = Message> {
  task: string;
  seed?: number;
  messages: readonly M[];
}

/** The actions an episode took, in order: its assistant turns. */
export const episodeActions = (record: EpisodeRecord): string[] =>
  record.messages.filter((m) => m.role === 'assistant').map((m) => m.content);

/**
 * Demo-conditioned copies of SFT records, so a policy learns to use a demonstration in its
 * context: each record again, with every observation (user turn) showing another seed's
 * actions on the same task, written in by the template a demo-conditioned policy and SDFT's
 * teacher read. Every user turn carries it because `eval --demo` shows it on every turn. The
 * demo is the next record of the task with a different seed (in file order, wrapping round),
 * so the copies are the same on every run (records without a seed count as different episodes); a task with one seed gets no copy, since its own
 * actions as the demo would teach copying, not reading.
 */
export function demoConditionedCopies<M extends Message, R extends EpisodeRecord<M>>(
  records: readonly R[],
  template: string,
): R[] {
  const byTask = new Map<string, R[]>();
  for (const record of records) {
    const same = byTask.get(record.task);
    if (same) same.push(record);
    else byTask.set(record.task, [record]);
  }
  return records.flatMap((record) => {
    const same = byTask.get(record.task)!;
    const at = same.indexOf(record);
    const demo = [...same.slice(at + 1), ...same.slice(0, at)].find(
      (other) => other.seed === undefined || other.seed !== record.seed,
    );
    if (!demo) return [];
    const view = { text: demonstrationText(episodeActions(demo)), template };
    const messages = record.messages.map((m) =>
      m.role === 'user' ? { ...m, content: withDemonstration(m.content, view) } : m,
    );
    return [{ ...record, messages } as R];
  });
}
