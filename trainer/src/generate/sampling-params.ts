/** What a request asks of the sampler; the server maps vLLM/OpenAI/TRL fields onto this. */
export interface SamplingParams {
  /** 0 = greedy. */
  temperature: number;
  topP: number;
  /** 0 or -1 = off. */
  topK: number;
  minP: number;
  /** 1 = off; > 1 discourages tokens already in the prompt or the output (CTRL / vLLM rule). */
  repetitionPenalty: number;
  /** Same seed → same tokens; absent = a fresh random seed. */
  seed?: number | undefined;
  maxTokens: number;
  minTokens: number;
  stop: string[];
  stopTokenIds: number[];
  ignoreEos: boolean;
  /** Top alternatives to report per sampled token (0 = only the sampled one). */
  topLogprobs: number;
}

export const DEFAULT_SAMPLING: Readonly<SamplingParams> = {
  temperature: 1,
  topP: 1,
  topK: 0,
  minP: 0,
  repetitionPenalty: 1,
  maxTokens: 16,
  minTokens: 0,
  stop: [],
  stopTokenIds: [],
  ignoreEos: false,
  topLogprobs: 0,
};

export function samplingParams(overrides: Partial<SamplingParams> = {}): SamplingParams {
  return { ...DEFAULT_SAMPLING, ...overrides };
}
