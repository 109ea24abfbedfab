import { demonstratedActions, demonstrationText, withDemonstration } from './demonstration.js';

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

/** The actions an episode took, in order, each with the element it acted on (demonstratedActions). */
export const episodeActions = (record: EpisodeRecord): string[] => demonstratedActions(record.messages);

/**
 * Demo-conditioned copies of SFT records, so a policy learns to use a demonstration in its
 * context: each record again, with every observation (user turn) showing another seed's
 * actions on the same task, written in by the template a demo-conditioned policy and SDFT's
 * teacher read. Every user turn carries it because `eval --demo` shows it on every turn. The
 * demo is the next record of the task with a different seed (in file order, wrapping round),
 * so the copies are the same on every run; records without a seed count as different episodes.
 * A task with one seed gets no copy: its own actions as the demo would teach copying, not reading.
 */
export function demoConditionedCopies<M extends Message, R extends EpisodeRecord<M>>(
  records: readonly R[],
  template: string,
): R[] {
  const byTask = new Groups();
  records.forEach((record, i) => byTask.add(record.task, i));
  return records.flatMap((record, i) => {
    const partner = byTask.nextAfter(i, (j) => records[j]!.seed === undefined || records[j]!.seed !== record.seed);
    if (partner === undefined) return [];
    const view = { text: demonstrationText(episodeActions(records[partner]!)), template };
    const messages = record.messages.map((m) =>
      m.role === 'user' ? { ...m, content: withDemonstration(m.content, view) } : m,
    );
    return [{ ...record, messages }];
  });
}

/** Record indices grouped by a key, each group in file order. */
class Groups {
  private readonly groups = new Map<string, number[]>();
  private readonly placed = new Map<number, { group: number[]; at: number }>();

  add(key: string, index: number): void {
    const group = this.groups.get(key) ?? [];
    this.groups.set(key, group);
    this.placed.set(index, { group, at: group.push(index) - 1 });
  }

  /** The first index after `index` in its group (wrapping round, itself excluded) that `accept` takes. */
  nextAfter(index: number, accept: (other: number) => boolean): number | undefined {
    const { group, at } = this.placed.get(index)!;
    for (let k = 1; k < group.length; k++) {
      const other = group[(at + k) % group.length]!;
      if (accept(other)) return other;
    }
    return undefined;
  }
}
