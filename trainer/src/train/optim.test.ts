import { describe, expect, test } from 'vitest';
import { AdamW } from './adamw.js';
import { clipGlobalNorm, globalNorm } from './clip.js';
import { learningRate } from './schedule.js';

describe('AdamW', () => {
  test('follows torch.optim.AdamW on a two-step trace', () => {
    // lr 0.1, weight decay 0.1. Step 1 by hand: bias correction makes the adaptive step ±lr, so
    // p = p·(1 − 0.01) − 0.1·sign(g): [0.89, −2.08]. Step 2 against PyTorch's loop written out below.
    const p = Float32Array.from([1, -2]);
    const opt = new AdamW({ weightDecay: 0.1 });
    const params = new Map([['p', p]]);
    opt.update(params, new Map([['p', Float32Array.from([0.5, 0.1])]]), 0.1);
    expect(p[0]).toBeCloseTo(0.89, 6);
    expect(p[1]).toBeCloseTo(-2.08, 6);
    opt.update(params, new Map([['p', Float32Array.from([-0.5, 0.3])]]), 0.1);
    expect(p[0]).toBeCloseTo(reference(1, [0.5, -0.5]), 5);
    expect(p[1]).toBeCloseTo(reference(-2, [0.1, 0.3]), 5);
    expect(opt.state.step).toBe(2);
  });

  test('weight decay is decoupled: a zero gradient still shrinks the weight by lr·wd', () => {
    const p = Float32Array.from([2]);
    new AdamW({ weightDecay: 0.5 }).update(new Map([['p', p]]), new Map([['p', Float32Array.from([0])]]), 0.1);
    expect(p[0]).toBeCloseTo(2 * (1 - 0.05), 6);
  });

  test('a missing gradient and bad hyper-parameters are named', () => {
    expect(() => new AdamW().update(new Map([['w', new Float32Array(2)]]), new Map(), 0.1)).toThrow(
      /gradient for 'w' is missing/,
    );
    expect(() => new AdamW({ beta2: 1 })).toThrow(/beta2 must be in \[0, 1\)/);
  });
});

// PyTorch's AdamW for one scalar, written out independently of the class above.
function reference(p0: number, grads: number[], lr = 0.1, wd = 0.1, b1 = 0.9, b2 = 0.999, eps = 1e-8): number {
  let [p, m, v] = [p0, 0, 0];
  grads.forEach((g, i) => {
    const t = i + 1;
    p -= lr * wd * p;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g * g;
    p -= (lr * m) / (1 - b1 ** t) / (Math.sqrt(v / (1 - b2 ** t)) + eps);
  });
  return p;
}

describe('AdamW state export and import', () => {
  test('an optimizer continued from an exported state takes bitwise the same next update', () => {
    const grads = (k: number) => new Map([['p', Float32Array.from([0.3 * k, -0.2, 0.1 / k])]]);
    const [p, q] = [Float32Array.from([1, 2, 3]), Float32Array.from([0, 0, 0])];
    const first = new AdamW({ weightDecay: 0.05 });
    first.update(new Map([['p', p]]), grads(1), 0.1);
    first.update(new Map([['p', p]]), grads(2), 0.1);
    const exported = first.exportState();
    q.set(p);
    first.update(new Map([['p', p]]), grads(3), 0.1);
    expect(exported.m.get('p')).not.toEqual(first.state.m.get('p')); // a copy, not the live moments
    const second = new AdamW({ weightDecay: 0.05 });
    second.importState(exported, new Map([['p', 3]]));
    second.update(new Map([['p', q]]), grads(3), 0.1);
    expect(Array.from(q)).toEqual(Array.from(p));
    expect(second.state.step).toBe(3);
  });

  test('a state that does not fit the parameters is refused by name', () => {
    const state = { step: 2, m: new Map([['p', new Float32Array(2)]]), v: new Map([['p', new Float32Array(3)]]) };
    expect(() => new AdamW().importState(state, new Map([['p', 3]]))).toThrow(/m\['p'\] is 2 long, expected 3/);
    expect(() => new AdamW().importState({ ...state, step: -1 })).toThrow(/step/);
    const sizes = new Map([
      ['p', 3],
      ['r', 1],
    ]);
    const ok = { step: 2, m: new Map([['p', new Float32Array(3)]]), v: new Map([['p', new Float32Array(3)]]) };
    expect(() => new AdamW().importState(ok, sizes)).toThrow(/no moment for 'r'/);
  });
});

describe('global-norm clipping', () => {
  test('scales every tensor together when the norm is over the limit, and reports the norm before', () => {
    const a = Float32Array.from([3, 0]);
    const b = Float32Array.from([0, 4]);
    expect(clipGlobalNorm([a, b], 1)).toBeCloseTo(5, 6);
    expect(globalNorm([a, b])).toBeCloseTo(1, 5);
    expect(a[0]! / b[1]!).toBeCloseTo(0.75, 6);
  });

  test('leaves small gradients alone', () => {
    const a = Float32Array.from([0.3, 0.4]);
    expect(clipGlobalNorm([a], 1)).toBeCloseTo(0.5, 6);
    expect(Array.from(a)).toEqual([Math.fround(0.3), Math.fround(0.4)]);
  });
});

describe('learning-rate schedule', () => {
  test('linear warmup then cosine decay to minLr', () => {
    const s = { lr: 1, warmupSteps: 3, decay: 'cosine' as const, totalSteps: 13, minLr: 0.1 };
    expect([0, 1, 2].map((i) => learningRate(s, i))).toEqual([0.25, 0.5, 0.75]);
    expect(learningRate(s, 3)).toBeCloseTo(1, 9);
    expect(learningRate(s, 8)).toBeCloseTo(0.55, 9);
    expect(learningRate(s, 13)).toBeCloseTo(0.1, 9);
    expect(learningRate(s, 100)).toBeCloseTo(0.1, 9);
  });

  test('linear decay and constant', () => {
    expect(learningRate({ lr: 2, decay: 'linear', totalSteps: 4 }, 2)).toBeCloseTo(1, 9);
    expect(learningRate({ lr: 2 }, 1000)).toBe(2);
    expect(() => learningRate({ lr: 1, decay: 'linear' }, 0)).toThrow(/needs totalSteps/);
  });
});
