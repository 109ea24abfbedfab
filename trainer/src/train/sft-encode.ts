import type { TemplateMessage } from '../model/chat-template.js';
import type { ModelTokenizer } from '../model/tokenizer.js';
import type { TrainSequence } from './batch.js';
import { DataFileError, type SftLine } from './sft-data.js';
import { trimConversation } from './sft-trim.js';

export interface SftEncodeOptions {
  /**
   * Longer conversations drop their oldest exchanges until they fit (see sft-trim.ts); longer
   * text examples keep their first maxLength tokens (as TRL truncates).
   */
  maxLength: number;
  /** Token ids must be below this (the model's vocabulary). */
  vocabSize: number;
  /**
   * Loss weight of every token that is not trained (prompts, user and system turns, template text):
   * 0 (the default) trains completions only; 1 trains every token alike, as TRL does with
   * assistant_only_loss=False. A little (0.1) teaches a model that starts from random weights the
   * shape of its text far faster, since the prompts hold most of the tokens.
   */
  promptLossWeight?: number;
}

export interface SftEncoded {
  sequences: TrainSequence[];
  /** Source line of each sequence, for messages about it. */
  lines: number[];
  /** Text examples cut to maxLength tokens. */
  truncated: number;
  /** Conversations that fit only without some of their oldest exchanges, and how many exchanges that took. */
  trimmed: { conversations: number; exchanges: number };
  /** Lines dropped because truncation left none of their trained tokens. */
  dropped: number[];
  /** Conversations whose system prompt, goal turn and final actions alone exceed maxLength. */
  tooLong: number[];
}

/** Tokenises every record and masks all but the trained tokens; errors name the file and line. */
export function encodeSftRecords(
  file: string,
  records: readonly SftLine[],
  tokenizer: ModelTokenizer,
  options: SftEncodeOptions,
): SftEncoded {
  const out: SftEncoded = {
    sequences: [],
    lines: [],
    truncated: 0,
    trimmed: { conversations: 0, exchanges: 0 },
    dropped: [],
    tooLong: [],
  };
  for (const record of records) {
    let sequence: TrainSequence;
    if (record.kind === 'chat') {
      const fit = trimConversation(record, options.maxLength, (c) =>
        checkVocabulary(file, record.line, encodeChat(file, record.line, c.messages, c.trained, tokenizer), options),
      );
      if (!fit) {
        out.tooLong.push(record.line);
        continue;
      }
      if (fit.droppedExchanges > 0) {
        out.trimmed.conversations++;
        out.trimmed.exchanges += fit.droppedExchanges;
      }
      sequence = fit.encoded;
    } else {
      const full = checkVocabulary(file, record.line, encodeText(file, record, tokenizer), options);
      sequence =
        full.tokens.length > options.maxLength
          ? { tokens: full.tokens.slice(0, options.maxLength), mask: full.mask.slice(0, options.maxLength) }
          : full;
      if (sequence !== full) out.truncated++;
    }
    // Position 0 is never a target (nothing predicts it), so it does not count as trained.
    if (!sequence.mask.some((m, i) => i > 0 && m === 1)) {
      out.dropped.push(record.line);
      continue;
    }
    out.sequences.push(withPromptWeight(sequence, options.promptLossWeight ?? 0));
    out.lines.push(record.line);
  }
  return out;
}

/**
 * The sequence with its untrained tokens (mask 0) weighted `weight` instead. Which tokens are the
 * completions stays in `extras.completion` (the unweighted mask): at weight 1 the mask alone no
 * longer tells them apart, and progress reports their own loss.
 */
export function withPromptWeight(sequence: TrainSequence, weight: number): TrainSequence {
  if (!(weight >= 0 && weight <= 1)) throw new RangeError(`promptLossWeight must be in [0, 1] (got ${weight})`);
  if (weight === 0) return sequence;
  return {
    ...sequence,
    mask: sequence.mask.map((m) => (m === 0 ? weight : m)),
    extras: { ...sequence.extras, completion: sequence.mask },
  };
}

function checkVocabulary(
  file: string,
  line: number,
  sequence: TrainSequence,
  options: SftEncodeOptions,
): TrainSequence {
  const bad = sequence.tokens.findIndex((t) => t >= options.vocabSize);
  if (bad >= 0)
    throw new DataFileError(
      file,
      line,
      `token ${bad} is id ${sequence.tokens[bad]}, outside the model's vocabulary of ${options.vocabSize} (tokenizer and model do not match)`,
    );
  return sequence;
}

/**
 * A conversation as the model sees it at inference: for each trained turn, the template's text up
 * to the generation prompt (masked), then the reply as the template renders it (trained up to and
 * including its end-of-turn token; template whitespace after that is masked). Segments are
 * tokenised one by one, so the prompt tokens are exactly what generation would be given.
 */
export function encodeChat(
  file: string,
  line: number,
  messages: readonly TemplateMessage[],
  trained: readonly boolean[],
  tokenizer: ModelTokenizer,
): TrainSequence {
  const render = (count: number, addGenerationPrompt: boolean): string => {
    try {
      return tokenizer.applyChatTemplate(messages.slice(0, count), { addGenerationPrompt });
    } catch (error) {
      throw new DataFileError(file, line, `messages: ${(error as Error).message}`, 'messages');
    }
  };
  const tokens: number[] = [];
  const mask: number[] = [];
  let done = '';
  const unstable = (i: number) =>
    new DataFileError(
      file,
      line,
      `the chat template is not prefix-stable at message ${i} (rendering later turns rewrites earlier text), so assistant turns cannot be masked token-exactly`,
      `messages[${i}]`,
    );
  trained.forEach((isTrained, i) => {
    if (!isTrained) return;
    const prompt = render(i, true);
    if (!prompt.startsWith(done)) throw unstable(i);
    const context = tokenizer.encode(prompt.slice(done.length));
    tokens.push(...context);
    mask.push(...context.map(() => 0));
    const withReply = render(i + 1, false);
    if (!withReply.startsWith(prompt)) throw unstable(i);
    const reply = tokenizer.encode(withReply.slice(prompt.length));
    const end = reply.findIndex((id) => tokenizer.isEos(id));
    tokens.push(...reply);
    mask.push(...reply.map((_, k) => (end < 0 || k <= end ? 1 : 0)));
    done = withReply;
  });
  return { tokens, mask };
}

/** Prompt as the tokenizer encodes text (its own BOS, if any), then completion + end-of-sequence. */
function encodeText(
  file: string,
  record: Extract<SftLine, { kind: 'text' }>,
  tokenizer: ModelTokenizer,
): TrainSequence {
  const eos = tokenizer.eosTokenId;
  if (eos === null)
    throw new DataFileError(
      file,
      record.line,
      'completion: the tokenizer has no end-of-sequence token to end a text completion with (set eos_token in tokenizer_config.json)',
      'completion',
    );
  const prompt = tokenizer.encode(record.prompt, { addSpecialTokens: true });
  if (prompt.length === 0)
    throw new DataFileError(
      file,
      record.line,
      'prompt is empty (the completion needs at least one token before it)',
      'prompt',
    );
  const completion = [...tokenizer.encode(record.completion), eos];
  return { tokens: [...prompt, ...completion], mask: [...prompt.map(() => 0), ...completion.map(() => 1)] };
}
