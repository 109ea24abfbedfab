import { demoConditionedCopies } from '@gauntlet/proto/agent';
import type { SftLine } from './sft-data.js';

type ChatLine = Extract<SftLine, { kind: 'chat' }>;

/**
 * sft --demo-conditioned: the data's `collect` records, each again with another seed's actions
 * on the same task shown in every observation (proto's demoConditionedCopies), after the
 * originals. A copy keeps its record's line number, so what is said about it names that line.
 * Lines that are not `collect` records (no task and seed) get no copy.
 */
export function withDemoCopies(lines: readonly SftLine[], template: string): { lines: SftLine[]; copies: number } {
  const records = lines.flatMap((line) =>
    line.kind === 'chat' && line.origin ? [{ ...line, task: line.origin.task, seed: line.origin.seed }] : [],
  );
  const copies = demoConditionedCopies(records, template).map(({ task: _task, seed: _seed, ...line }): ChatLine => ({
    ...line,
    messages: [...line.messages],
  }));
  return { lines: [...lines, ...copies], copies: copies.length };
}
