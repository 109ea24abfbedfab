import { defineOptions } from '@gauntlet/proto/cli';

/** The flags of `run --mode local` (and `--repetition-penalty`, which any mode may send). */
export const LOCAL_OPTIONS = defineOptions({
  'model-dir': {
    kind: 'string',
    help: 'local: the base model folder (config.json, *.safetensors, tokenizer.json) to serve with gauntlet-trainer serve',
    valueName: 'DIR',
  },
  adapter: {
    kind: 'string',
    help: "local: a PEFT LoRA folder (gauntlet-trainer sft's output) served on top of --model-dir; requests name it by its folder's name",
    valueName: 'DIR',
  },
  'trainer-bin': {
    kind: 'string',
    help: 'The gauntlet-trainer binary that serves --model-dir',
    defaultText: 'node_modules/.bin/gauntlet-trainer, else PATH',
    valueName: 'PATH',
  },
  'repetition-penalty': {
    kind: 'number',
    help: 'Penalty on tokens already in the prompt or reply (vLLM semantics; 1 = off); OpenAI itself refuses the field',
    defaultText: '1.15 in local mode, else not sent',
    min: 0.01,
  },
});
