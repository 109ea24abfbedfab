import type { Node, Tensor } from './graph.js';
import type { AttrValue } from './op-spec.js';

/** What a backward rule sees of its node: inputs, outputs, upstream gradients and which inputs need one. */
export interface RuleContext {
  readonly node: Node;
  /** Input i (a rule asks only for inputs that exist). */
  x(i: number): Tensor;
  /** Output i of the forward node. */
  y(i?: number): Tensor;
  /** Upstream gradient of output i; zeros when nothing downstream reached that output. */
  g(i?: number): Tensor;
  /**
   * The same gradient as it arrived: possibly broadcastable to output i (a reduction's, with 1s on
   * the reduced axes). Elementwise rules that broadcast anyway read this and skip an Expand.
   */
  gBroadcast(i?: number): Tensor;
  /** Whether input i lies on a path to a requested gradient; rules skip the others. */
  needs(i: number): boolean;
  /** `fn()` when input i needs a gradient, else undefined — keeps pruned branches out of the graph. */
  when(i: number, fn: () => Tensor): Tensor | undefined;
  int(name: string, fallback: number): number;
  ints(name: string): readonly number[] | undefined;
  attr(name: string): AttrValue | undefined;
}

/** Returns one entry per input: its gradient, or undefined for no gradient (zero, or not needed). */
export type BackwardRule = (c: RuleContext) => readonly (Tensor | undefined)[];
