import { describe, expect, it } from 'vitest';
import { DEFAULT_LORA_CONFIG, loraScale, makeLoraConfig } from './config.js';

describe('makeLoraConfig', () => {
  it('defaults to PEFT defaults on all seven linear layers', () => {
    expect(makeLoraConfig()).toEqual({
      rank: 8,
      alpha: 8,
      targets: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'],
      useRslora: false,
      dropout: 0,
    });
    expect(makeLoraConfig()).toEqual(DEFAULT_LORA_CONFIG);
  });

  it('puts targets in canonical order', () => {
    expect(makeLoraConfig({ targets: ['down_proj', 'q_proj', 'v_proj'] }).targets).toEqual([
      'q_proj',
      'v_proj',
      'down_proj',
    ]);
  });

  it.each([
    [{ rank: 0 }, 'LoRA rank must be a positive integer (got 0)'],
    [{ rank: 2.5 }, 'LoRA rank must be a positive integer (got 2.5)'],
    [{ alpha: -1 }, 'LoRA alpha must be a positive number (got -1)'],
    [{ dropout: 1 }, 'LoRA dropout must be in [0, 1) (got 1)'],
    [{ targets: [] }, 'LoRA needs at least one target module'],
    [
      { targets: ['q_proj', 'lm_head'] },
      'unknown LoRA targets lm_head (choose from q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj)',
    ],
  ])('rejects %j', (options, message) => {
    expect(() => makeLoraConfig(options as never)).toThrow(message);
  });
});

describe('loraScale', () => {
  it('is α/r, or α/√r with rsLoRA', () => {
    expect(loraScale({ rank: 16, alpha: 32, useRslora: false })).toBe(2);
    expect(loraScale({ rank: 16, alpha: 32, useRslora: true })).toBe(8);
  });
});
