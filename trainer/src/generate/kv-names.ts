/** Input and output names of the cached forward graph, shared by its builder and its feeds. */
export const KV = {
  inputIds: 'input_ids',
  positionIds: 'position_ids',
  /** [batch, past + seq]: 1 where a key (cached or new) is a real token. */
  attentionMask: 'attention_mask',
  /** [rows]: flat indices into [batch · seq] of the positions that need logits. */
  logitRows: 'logit_rows',
  logits: 'logits',
  pastKey: (layer: number) => `past_key.${layer}`,
  pastValue: (layer: number) => `past_value.${layer}`,
  /** Keys and values of the new positions only: the host appends them to each sequence's cache. */
  presentKey: (layer: number) => `present_key.${layer}`,
  presentValue: (layer: number) => `present_value.${layer}`,
} as const;

/** The symbolic rank of every adapter input: one graph serves adapters of any rank. */
export const LORA_RANK_DIM = 'lora_rank';
