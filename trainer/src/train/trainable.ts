import { ValidationError } from '@gauntlet/proto';
import type { ModelConfig } from '../model/config.js';
import { expectedWeightShapes, outputHeadName } from '../model/layout.js';

/**
 * What a run trains (`--train`): `lora` (an adapter on frozen weights), or base weights in parts:
 * `embeddings` (the token embedding), `head` (the output projection; the embedding itself when
 * tied), `layers` (every weight of every decoder block, and the final norm). `full` is all three.
 */
export const TRAIN_PARTS = ['lora', 'embeddings', 'head', 'layers'] as const;
export type TrainPart = (typeof TRAIN_PARTS)[number];
export type TrainSpec = ReadonlySet<TrainPart>;

export const LORA_ONLY: TrainSpec = new Set(['lora']);
export const FULL: TrainSpec = new Set(['embeddings', 'head', 'layers']);

/** `lora`, `full`, or a comma-separated list of parts (`lora,embeddings,head`). */
export function parseTrainSpec(text: string): TrainSpec {
  const parts = new Set<TrainPart>();
  for (const word of text.split(',').map((w) => w.trim())) {
    if (word === 'full') for (const p of FULL) parts.add(p);
    else if ((TRAIN_PARTS as readonly string[]).includes(word)) parts.add(word as TrainPart);
    else
      throw new ValidationError(
        `--train: unknown part '${word}' (choose lora, full, or a list of ${TRAIN_PARTS.join(', ')})`,
      );
  }
  // A trained block weight already moves wherever an adapter on it could: the adapter is redundant.
  if (parts.has('lora') && parts.has('layers'))
    throw new ValidationError('--train: lora adapts the layers that layers (or full) already trains; pick one');
  return parts;
}

/** Whether a spec trains any base weight (then a run's output is a model folder, not an adapter). */
export function trainsBaseWeights(spec: TrainSpec): boolean {
  return [...spec].some((p) => p !== 'lora');
}

/** `lora`, `full`, or the parts in canonical order: how a run reports what it trains. */
export function formatTrainSpec(spec: TrainSpec): string {
  if ([...FULL].every((p) => spec.has(p)) && !spec.has('lora')) return 'full';
  return TRAIN_PARTS.filter((p) => spec.has(p)).join(',');
}

/** The base weights a spec trains, by Hugging Face name, in checkpoint order. */
export function trainedWeightNames(config: ModelConfig, spec: TrainSpec): string[] {
  const head = outputHeadName(config);
  return [...expectedWeightShapes(config).keys()].filter((name) => {
    if (name === 'model.embed_tokens.weight' && spec.has('embeddings')) return true;
    if (name === head && spec.has('head')) return true;
    return spec.has('layers') && (name.startsWith('model.layers.') || name === 'model.norm.weight');
  });
}
