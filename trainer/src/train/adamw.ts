export interface AdamWOptions {
  lr: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  /** Decoupled (AdamW) weight decay: p ← p − lr·wd·p, separate from the adaptive step. */
  weightDecay?: number;
}

export interface AdamWState {
  step: number;
  m: Map<string, Float32Array>;
  v: Map<string, Float32Array>;
}

/**
 * AdamW as PyTorch computes it (bias-corrected moments, decay applied to the weights, not
 * through the gradient). Parameters are updated in place; the learning rate of each step is
 * passed in so the schedule stays outside.
 */
export class AdamW {
  readonly state: AdamWState = { step: 0, m: new Map(), v: new Map() };
  private readonly beta1: number;
  private readonly beta2: number;
  private readonly eps: number;
  private readonly weightDecay: number;

  constructor(options: Omit<AdamWOptions, 'lr'> = {}) {
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.999;
    this.eps = options.eps ?? 1e-8;
    this.weightDecay = options.weightDecay ?? 0;
    for (const [name, v] of Object.entries({ beta1: this.beta1, beta2: this.beta2 })) {
      if (!(v >= 0 && v < 1)) throw new RangeError(`AdamW ${name} must be in [0, 1), got ${v}`);
    }
    if (!(this.eps > 0)) throw new RangeError(`AdamW eps must be positive, got ${this.eps}`);
    if (!(this.weightDecay >= 0)) throw new RangeError(`AdamW weightDecay must be ≥ 0, got ${this.weightDecay}`);
  }

  update(params: ReadonlyMap<string, Float32Array>, grads: ReadonlyMap<string, Float32Array>, lr: number): void {
    const t = ++this.state.step;
    // Locals, not fields, inside the loop: V8 keeps them in registers (the loop runs per weight).
    const { beta1, beta2, eps } = this;
    const [keep1, keep2] = [1 - beta1, 1 - beta2];
    const stepSize = lr / (1 - beta1 ** t);
    const rootC2 = Math.sqrt(1 - beta2 ** t);
    const decay = 1 - lr * this.weightDecay;
    for (const [name, p] of params) {
      const g = grads.get(name);
      if (!g || g.length !== p.length)
        throw new RangeError(
          `AdamW: gradient for '${name}' is ${g ? `${g.length} long, expected ${p.length}` : 'missing'}`,
        );
      const m = this.moment(this.state.m, name, p.length);
      const v = this.moment(this.state.v, name, p.length);
      for (let i = 0; i < p.length; i++) {
        const gi = g[i]!;
        const mi = beta1 * m[i]! + keep1 * gi;
        const vi = beta2 * v[i]! + keep2 * gi * gi;
        m[i] = mi;
        v[i] = vi;
        // lr·m̂ / (√v̂ + ε) with the bias corrections folded into stepSize and rootC2.
        p[i] = p[i]! * decay - (stepSize * mi) / (Math.sqrt(vi) / rootC2 + eps);
      }
    }
  }

  /** A copy of the step count and both moments (a checkpoint must not alias arrays that keep changing). */
  exportState(): AdamWState {
    const copy = (map: Map<string, Float32Array>) => new Map([...map].map(([k, a]) => [k, a.slice()]));
    return { step: this.state.step, m: copy(this.state.m), v: copy(this.state.v) };
  }

  /**
   * Continues from an exported state: the next update is bitwise the one the exporting optimizer
   * would have taken. With `sizes`, every moment must exist for exactly these parameters.
   */
  importState(state: AdamWState, sizes?: ReadonlyMap<string, number>): void {
    if (!Number.isSafeInteger(state.step) || state.step < 0)
      throw new RangeError(`AdamW state: step must be a non-negative integer, got ${state.step}`);
    for (const [label, map] of [
      ['m', state.m],
      ['v', state.v],
    ] as const) {
      for (const [name, a] of map) {
        const want = sizes?.get(name);
        if (sizes && want === undefined) throw new RangeError(`AdamW state: ${label} has '${name}', not a parameter`);
        if (want !== undefined && a.length !== want)
          throw new RangeError(`AdamW state: ${label}['${name}'] is ${a.length} long, expected ${want}`);
      }
      const missing = sizes && state.step > 0 ? [...sizes.keys()].find((name) => !map.has(name)) : undefined;
      if (missing !== undefined) throw new RangeError(`AdamW state: ${label} has no moment for '${missing}'`);
    }
    this.state.step = state.step;
    for (const key of ['m', 'v'] as const) {
      this.state[key].clear();
      for (const [name, a] of state[key]) this.state[key].set(name, a.slice());
    }
  }

  private moment(map: Map<string, Float32Array>, name: string, n: number): Float32Array {
    let a = map.get(name);
    if (!a) map.set(name, (a = new Float32Array(n)));
    return a;
  }
}
