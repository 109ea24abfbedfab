import type { ModelConfig } from '../../../model/config.js';
import type { ModelTokenizer } from '../../../model/tokenizer.js';
import { DataFileError, readSftJsonl } from '../../../train/sft-data.js';
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
  promptLossWeight = 0,
): Promise<SftEncoded> {
  const data = encodeSftRecords(dataFile, await readSftJsonl(dataFile), tokenizer, {
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

/** The first lines of a long list, then how many more: a big file must not flood the terminal. */
function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, 10).join(', ');
  return lines.length > 10 ? `${shown} and ${lines.length - 10} more` : shown;
}
