import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../options.js';
import { dpoCommand } from '../dpo/dpo.js';
import { parseDpoSettings } from '../dpo/settings.js';
import { parseSftSettings } from './settings.js';
import { sftCommand } from './sft.js';

const sft = (...args: string[]) => parseSftSettings(parseCommandLine(sftCommand, args, {}));
const dpo = (...args: string[]) => parseDpoSettings(parseCommandLine(dpoCommand, args, {}));
const io = ['--data', 'd.jsonl', '--out', 'o'];

describe('sft and dpo settings', () => {
  it("take each row's default, and dpo its own --lr", () => {
    expect(sft(...io)).toMatchObject({ batchSize: 8, gradAccum: 1, lr: 2e-4, warmup: 0, schedule: 'linear', seed: 0 });
    expect(sft(...io).lora).toMatchObject({ rank: 8, alpha: 8 });
    expect(dpo(...io)).toMatchObject({
      lr: 5e-5,
      epochs: 1,
      dpo: { beta: 0.1, labelSmoothing: 0, lossType: 'sigmoid' },
    });
  });

  it.each([
    ['data', () => sft('--out', 'o')],
    ['lr', () => sft(...io, '--lr', '0')],
    ['prompt-loss-weight', () => sft(...io, '--prompt-loss-weight', '2')],
    ['train', () => sft(...io, '--train', 'lora,wings')],
    ['targets', () => sft(...io, '--targets', 'q_proj,lm_head')],
    ['steps', () => sft(...io, '--steps', '3', '--warmup', '3')],
    ['epochs', () => sft(...io, '--steps', '3', '--epochs', '2')],
    ['epochs', () => sft(...io, '--epochs', '0')],
    ['rank', () => dpo(...io, '--init-adapter', 'a', '--rank', '4')],
    ['ref-base', () => dpo(...io, '--ref-adapter', 'a', '--ref-base')],
    ['label-smoothing', () => dpo(...io, '--label-smoothing', '0.5')],
  ])('a bad --%s is a usage error naming it (UsageError.flag)', (flag, parse) => {
    expect(parse).toThrow(expect.objectContaining({ name: 'UsageError', flag }));
  });
});
