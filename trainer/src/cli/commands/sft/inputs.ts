import { DEFAULT_DEMONSTRATION_TEMPLATE } from '@gauntlet/proto/agent';
import type { ModelConfig } from '../../../model/config.js';
import type { ModelTokenizer } from '../../../model/tokenizer.js';
import { DataFileError, readSftJsonl } from '../../../train/sft-data.js';
import { withDemoCopies } from '../../../train/sft-demo-copies.js';
import { encodeSftRecords, type SftEncoded } from '../../../train/sft-encode.js';
import { UsageError, type CommandIo } from '../../command.js';

/**
 * The longest sequence to train: --max-length, else the model's own limit
 * (max_position_embeddings), so data that the model can read at all is never cut short.
 */
export function sftMaxLength(flag: number | undefined, config: ModelConfig): number {
  if (flag !== undefined && flag > config.maxPositionEmbeddings) {
    throw new UsageError(
      `sft: --max-length ${flag} exceeds the model's max_position_embeddings (${config.maxPositionEmbeddings})`,
      'max-length',
    );
  }
  return flag ?? config.maxPositionEmbeddings;
}

/** What loadSftData adds to the file's lines. */
export interface SftDataOptions {
  promptLossWeight?: number;
  /** Also encode demo-conditioned copies of the collect records (--demo-conditioned). */
  demoConditioned?: boolean;
}

/**
 * Reads and encodes the data file, saying on stderr what had to give to fit `maxLength`; fails,
 * naming the flag to change, when nothing is left to train.
 */
export async function loadSftData(
  dataFile: string,
  tokenizer: ModelTokenizer,
  config: ModelConfig,
  maxLength: number,
  belowModel: boolean,
  io: CommandIo,
  { promptLossWeight = 0, demoConditioned = false }: SftDataOptions = {},
): Promise<SftEncoded> {
  const read = await readSftJsonl(dataFile);
  const lines = demoConditioned ? demoCopies(dataFile, read, io) : read;
  const data = encodeSftRecords(dataFile, lines, tokenizer, {
    maxLength,
    vocabSize: config.vocabSize,
    promptLossWeight,
  });
  const { conversations, exchanges } = data.trimmed;
  if (conversations > 0)
    io.err(
      `sft: ${conversations} conversation(s) longer than ${maxLength} tokens lost their ${exchanges} oldest exchange(s) in all (system prompt, goal turn and final actions kept)`,
    );
  if (data.truncated > 0)
    io.err(`sft: ${data.truncated} text example(s) longer than ${maxLength} tokens were truncated`);
  if (data.dropped.length > 0)
    io.err(`sft: dropped line(s) ${lineList(data.dropped)}: nothing left to train within ${maxLength} tokens`);
  const remedy = belowModel
    ? `raise --max-length (the model allows up to ${config.maxPositionEmbeddings})`
    : `the model allows no more (max_position_embeddings ${config.maxPositionEmbeddings}); use a --model with more positions, e.g. one written by 'gauntlet-trainer init-tiny DIR --max-positions 16384'`;
  if (data.tooLong.length > 0)
    io.err(
      `sft: dropped line(s) ${lineList(data.tooLong)}: longer than ${maxLength} tokens even with only the system prompt, goal turn and final actions; to keep them, ${remedy}`,
    );
  if (data.sequences.length === 0)
    throw new DataFileError(dataFile, undefined, `no example fits within ${maxLength} tokens; ${remedy}`);
  return data;
}

/** The lines with their demo-conditioned copies after them; refused when no line can have one. */
function demoCopies(dataFile: string, read: Parameters<typeof withDemoCopies>[0], io: CommandIo) {
  const { lines, copies } = withDemoCopies(read, DEFAULT_DEMONSTRATION_TEMPLATE);
  if (copies === 0)
    throw new UsageError(
      `sft: --demo-conditioned: ${dataFile} has no two \`gauntlet-env collect\` records of one task with different seeds, so no record can be shown another's demonstration`,
      'demo-conditioned',
    );
  io.err(
    `sft: --demo-conditioned: ${copies} demo-conditioned cop${copies === 1 ? 'y' : 'ies'} of the ${read.length} line(s) added`,
  );
  return lines;
}

/** The first lines of a long list, then how many more: a big file must not flood the terminal. */
function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, 10).join(', ');
  return lines.length > 10 ? `${shown} and ${lines.length - 10} more` : shown;
}
