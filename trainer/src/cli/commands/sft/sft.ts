import type { Command } from '../../command.js';
import { runSftJob } from './job.js';
import { parseSftSettings } from './settings.js';

export const sftCommand: Command = {
  name: 'sft',
  summary: 'Fine-tune a LoRA adapter or the whole model on chat or prompt/completion JSONL (supervised)',
  description: [
    'Trains a LoRA adapter by supervised fine-tuning and writes it as a PEFT folder',
    '(adapter_config.json + adapter_model.safetensors) that PEFT and vLLM load. With --train full',
    '(or parts: embeddings, head, layers) it trains base weights too, with AdamW moments for each,',
    'and writes a Hugging Face model folder (model.safetensors, config.json, tokenizer files) that',
    'serve, transformers and vLLM load; a LoRA trained alongside is merged into it.',
    '',
    'Checkpoints (--save-every) hold every trained tensor, AdamW moments and the step;',
    '--resume DIR/checkpoint-<step> with the same settings continues bitwise as if never stopped.',
    '',
    'Data: JSONL, one example per line, either',
    '  {"messages": [{"role": "system"|"user"|"assistant", "content": "..."}, ...]}',
    "    rendered with the model's chat template; every assistant reply (and its end-of-turn",
    '    token) is trained, everything else is context; or',
    '  {"prompt": "...", "completion": "..."}',
    "    plain text, no template: prompt tokens (with the tokenizer's own BOS, if any) are",
    '    context, the completion and an end-of-sequence token are trained. prompt and completion',
    "    may also both be message lists (TRL's conversational form): the completion is trained.",
    'Other keys on a line are ignored; blank lines are skipped. A bad line is reported as',
    'file:line with the field to fix. A conversation longer than --max-length loses its oldest',
    'exchanges (a user turn and its replies) until it fits: the system prompt, the first user turn',
    '(the goal) and the final actions always stay; the counts are reported.',
    '',
    'Progress goes to stderr, one line per optimizer step. Ctrl-C stops at the next micro-batch',
    'and writes nothing more (checkpoints already saved stay complete); exit code 130.',
  ].join('\n'),
  positionals: [],
  options: {
    model: {
      type: 'string',
      valueName: 'DIR',
      description: 'Hugging Face model folder (config.json, *.safetensors, tokenizer.json)',
      defaultText: 'the built-in tiny model, recorded as base model "tiny"',
    },
    data: { type: 'string', valueName: 'FILE', description: 'Training data, JSONL (required)' },
    out: {
      type: 'string',
      valueName: 'DIR',
      description:
        'Folder for the PEFT adapter (or, with --train full, the model folder), written when training ends (required)',
    },
    steps: { type: 'string', valueName: 'N', description: 'Optimizer steps', defaultText: 'one pass over the data' },
    'batch-size': { type: 'string', valueName: 'N', description: 'Sequences per batch', defaultText: '8' },
    'grad-accum': {
      type: 'string',
      valueName: 'N',
      description: 'Batches whose gradients are summed per optimizer step (a step sees batch-size × N sequences)',
      defaultText: '1',
    },
    'micro-batch': {
      type: 'string',
      valueName: 'N',
      description: 'Sequences per forward/backward pass; lower it to bound memory, results do not change',
      defaultText: 'batch-size, at most 8192 / max-length',
    },
    lr: { type: 'string', valueName: 'X', description: 'Peak learning rate (AdamW)', defaultText: '2e-4' },
    warmup: { type: 'string', valueName: 'N', description: 'Steps of linear warmup from 0 to --lr', defaultText: '0' },
    schedule: {
      type: 'string',
      valueName: 'NAME',
      description: 'After warmup: constant, linear (to 0 at the last step) or cosine',
      defaultText: 'linear',
    },
    rank: { type: 'string', valueName: 'R', description: 'LoRA rank r', defaultText: '8' },
    alpha: {
      type: 'string',
      valueName: 'A',
      description: 'LoRA alpha; the adapter is scaled by alpha / r',
      defaultText: 'rank',
    },
    targets: {
      type: 'string',
      valueName: 'LIST',
      description: 'Comma-separated modules to adapt: q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj',
      defaultText: 'all seven',
    },
    rslora: { type: 'boolean', description: 'Rank-stabilised LoRA: scale by alpha / √r instead of alpha / r' },
    train: {
      type: 'string',
      valueName: 'WHAT',
      description:
        'What to train: lora, full (every weight, embeddings and head included), or a comma list of lora, embeddings, head (tied: the embedding), layers (every block weight and the final norm)',
      defaultText: 'lora',
    },
    resume: {
      type: 'string',
      valueName: 'DIR',
      description:
        'Continue from a checkpoint-<step> folder of a run with the same --train, --seed, --steps and batch; writes into --out without --force',
    },
    seed: {
      type: 'string',
      valueName: 'N',
      description: 'Seed for the adapter init and the data order (same seed, same run)',
      defaultText: '0',
    },
    'max-length': {
      type: 'string',
      valueName: 'N',
      description:
        'Longest sequence trained. Longer conversations drop their oldest exchanges (system prompt, goal turn and final actions kept) and are left out if still too long; longer text examples keep their first N tokens',
      defaultText: "the model's max_position_embeddings",
    },
    'prompt-loss-weight': {
      type: 'string',
      valueName: 'W',
      description:
        'Also train the tokens that are not completions (system and user turns, prompts) at loss weight W, 0 to 1; the loss is then the weighted mean over all tokens. Helps a model trained from random weights, whose prompts hold most of the text',
      defaultText: '0 (completions only)',
    },
    'save-every': {
      type: 'string',
      valueName: 'N',
      description:
        'Also save a checkpoint every N steps to DIR/checkpoint-<step>: the adapter or model folder, optimizer.safetensors, trainer_state.json',
    },
    threads: { type: 'string', valueName: 'N', description: 'onnxruntime threads per op', defaultText: 'one per core' },
    device: {
      type: 'string',
      valueName: 'NAME',
      description: "Execution provider: cpu or cuda (needs onnxruntime-node's CUDA binaries)",
      defaultText: 'cpu',
    },
    force: {
      type: 'boolean',
      description: 'Write into an --out folder that already has files, overwriting the adapter there',
    },
  },
  examples: [
    'gauntlet-trainer sft --data oracle.jsonl --out runs/sft-tiny --steps 100 --lr 1e-3',
    'gauntlet-trainer sft --model models/tiny --train full --data oracle.jsonl --out runs/sft-full --steps 200 --lr 1e-3 --save-every 50',
    'gauntlet-trainer sft --model models/tiny --train full --data oracle.jsonl --out runs/sft-full --steps 200 --lr 1e-3 \\',
    '    --save-every 50 --resume runs/sft-full/checkpoint-100',
    'gauntlet-trainer sft --model models/qwen2.5-0.5b --data oracle.jsonl --out runs/sft --rank 16 --alpha 32 \\',
    '    --batch-size 4 --grad-accum 4 --warmup 10 --schedule cosine --save-every 50',
  ],
  run: (context) => runSftJob(parseSftSettings(context), context.io, context.signal),
};
