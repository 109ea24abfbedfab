import type { DpoEncoded } from '../../../train/dpo/encode.js';
import { DataFileError } from '../../../train/sft-data.js';
import type { CommandIo } from '../../command.js';

const listed = (lines: readonly number[]) =>
  lines.length <= 10 ? lines.join(', ') : `${lines.slice(0, 10).join(', ')} and ${lines.length - 10} more`;

/**
 * Says which lines were cut or left out, and why (nothing is dropped silently); fails when no
 * pair is left, naming the flag that would make them fit.
 */
export function reportDpoData(file: string, data: DpoEncoded, maxLength: number, io: CommandIo): void {
  if (data.truncated.length > 0)
    io.err(`dpo: line(s) ${listed(data.truncated)}: a side was cut to the first ${maxLength} tokens (--max-length)`);
  const reasons = new Map<string, number[]>();
  for (const { line, reason } of data.dropped) reasons.set(reason, [...(reasons.get(reason) ?? []), line]);
  for (const [reason, lines] of reasons) io.err(`dpo: left out line(s) ${listed(lines)}: ${reason}`);
  if (data.pairs.length === 0)
    throw new DataFileError(
      file,
      undefined,
      `no pair is left to train on (${data.dropped.length} left out; a larger --max-length keeps pairs whose completion starts after ${maxLength} tokens)`,
    );
}
