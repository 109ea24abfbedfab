import { defineCommand } from '../../command.js';
import { runSftJob } from './job.js';
import { SFT_OPTIONS } from './options.js';
import { parseSftSettings } from './settings.js';

export const sftCommand = defineCommand({
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
  options: SFT_OPTIONS,
  examples: [
    'gauntlet-trainer sft --data oracle.jsonl --out runs/sft-tiny --steps 100 --lr 1e-3',
    'gauntlet-trainer sft --model models/tiny --train full --data oracle.jsonl --out runs/sft-full --steps 200 --lr 1e-3 --save-every 50',
    'gauntlet-trainer sft --model models/tiny --train full --data oracle.jsonl --out runs/sft-full --steps 200 --lr 1e-3 \\',
    '    --save-every 50 --resume runs/sft-full/checkpoint-100',
    'gauntlet-trainer sft --model models/qwen2.5-0.5b --data oracle.jsonl --out runs/sft --rank 16 --alpha 32 \\',
    '    --batch-size 4 --grad-accum 4 --warmup 10 --schedule cosine --save-every 50',
  ],
  run: (context) => runSftJob(parseSftSettings(context), context.io, context.signal),
});
