import type { BackwardRule, RuleContext } from './rule-context.js';
import { backwardRules, nonDifferentiable } from './backward.js';
import { isFloat } from './dtype.js';
import { AutodiffError } from './errors.js';
import type { Node, Tensor } from './graph.js';
import { expandLike, fillLike, zerosLike } from './helpers.js';
import type { OpName } from './op-table.js';
import * as o from './ops.js';

export interface GradientOptions {
  /** Gradient of the target (default: ones, i.e. d target / d wrt for a scalar target). */
  seed?: Tensor;
  /** Rule table to use; tests swap it to check the engine's own contract checks. */
  rules?: Readonly<Partial<Record<OpName, BackwardRule>>>;
}

/**
 * Reverse-mode autodiff: appends to the graph the nodes computing d target / d wrt for each
 * tensor in `wrt`. Only nodes on a path from some `wrt` tensor to the target are differentiated,
 * and each rule is told which inputs need a gradient, so nothing is built for frozen weights.
 */
export function gradients(target: Tensor, wrt: readonly Tensor[], options: GradientOptions = {}): Tensor[] {
  const graph = target.graph;
  const rules = options.rules ?? backwardRules;
  for (const w of wrt) {
    if (w.graph !== graph)
      throw new AutodiffError(`cannot differentiate with respect to ${w}: it belongs to another graph`);
    if (!isFloat(w.dtype))
      throw new AutodiffError(`cannot differentiate with respect to ${w}: only float tensors have gradients`);
  }
  const nodes = graph.nodes.slice();
  const active = activeNodes(nodes, target, wrt);
  const grads = new Map<string, Tensor>();
  grads.set(target.name, options.seed ?? fillLike(target, 1));
  // A gradient may arrive broadcastable to its tensor (a reduction's, with 1s on the reduced axes):
  // summing it into a full-shaped one broadcasts for free, so it is expanded only if read alone.
  const accumulate = (t: Tensor, g: Tensor): void => {
    const prior = grads.get(t.name);
    grads.set(t.name, prior ? o.add(prior, g) : g);
  };
  const readAsIs = (t: Tensor): Tensor | undefined => grads.get(t.name);
  const read = (t: Tensor): Tensor | undefined => {
    const g = grads.get(t.name);
    if (!g) return undefined;
    // Only a 1 facing another dim is a broadcast; symbolic dims written differently are the same size.
    if (!g.shape.some((d, k) => d === 1 && t.shape[k] !== 1)) return g;
    const full = expandLike(g, t);
    grads.set(t.name, full);
    return full;
  };
  for (let n = active.nodes.length - 1; n >= 0; n--) {
    const node = active.nodes[n]!;
    if (!node.outputs.some((t) => grads.has(t.name))) continue;
    const rule = rules[node.op];
    if (!rule)
      throw new AutodiffError(
        `no backward rule for op ${node.op} (node '${node.name}'); add one to backward.ts or stop the gradient before it`,
      );
    const needs = node.inputs.map((t) => !!t && active.dependent.has(t.name));
    const results = graph.scope(`grad/${node.name}`, () => rule(ruleContext(node, read, readAsIs, needs)));
    if (results.length !== node.inputs.length) {
      throw new AutodiffError(
        `backward rule for ${node.op} returned ${results.length} gradients for ${node.inputs.length} inputs (node '${node.name}')`,
      );
    }
    results.forEach((g, i) => {
      const x = node.inputs[i];
      if (!g || !x || !needs[i]) return;
      checkGradient(node, i, x, g);
      accumulate(x, g);
    });
  }
  return wrt.map((w) => read(w) ?? zerosLike(w));
}

/** Nodes that both depend on some wrt tensor and feed the target, in graph order. */
function activeNodes(
  nodes: readonly Node[],
  target: Tensor,
  wrt: readonly Tensor[],
): { nodes: Node[]; dependent: Set<string> } {
  const dependent = new Set(wrt.map((t) => t.name));
  for (const node of nodes) {
    if (nonDifferentiable.has(node.op)) continue;
    if (!node.inputs.some((t) => t && dependent.has(t.name))) continue;
    for (const t of node.outputs) if (isFloat(t.dtype)) dependent.add(t.name);
  }
  const feedsTarget = new Set([target.name]);
  const chosen: Node[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    if (!node.outputs.some((t) => feedsTarget.has(t.name) && dependent.has(t.name))) continue;
    chosen.push(node);
    for (const t of node.inputs) if (t) feedsTarget.add(t.name);
  }
  return { nodes: chosen.reverse(), dependent };
}

type Reader = (t: Tensor) => Tensor | undefined;

function ruleContext(node: Node, read: Reader, readAsIs: Reader, needs: readonly boolean[]): RuleContext {
  const c: RuleContext = {
    node,
    x: (i) => {
      const t = node.inputs[i];
      if (!t) throw new AutodiffError(`backward rule for ${node.op} read missing input ${i} (node '${node.name}')`);
      return t;
    },
    y: (i = 0) => node.outputs[i]!,
    g: (i = 0) => read(node.outputs[i]!) ?? zerosLike(node.outputs[i]!),
    gBroadcast: (i = 0) => readAsIs(node.outputs[i]!) ?? zerosLike(node.outputs[i]!),
    needs: (i) => needs[i] ?? false,
    when: (i, fn) => (needs[i] ? fn() : undefined),
    int: (name, fallback) => {
      const v = node.attrs[name];
      return typeof v === 'number' ? v : fallback;
    },
    ints: (name) => {
      const v = node.attrs[name];
      return Array.isArray(v) ? (v as readonly number[]) : undefined;
    },
    attr: (name) => node.attrs[name],
  };
  return c;
}

function checkGradient(node: Node, i: number, x: Tensor, g: Tensor): void {
  const where = `backward rule for ${node.op} (node '${node.name}'), input ${i} ${x}`;
  if (g.dtype !== x.dtype) throw new AutodiffError(`${where}: gradient dtype ${g.dtype} differs`);
  if (g.rank !== x.rank) throw new AutodiffError(`${where}: gradient has rank ${g.rank}`);
  g.shape.forEach((d, k) => {
    const want = x.shape[k];
    // 1 broadcasts (a reduction's gradient before expansion); any other mismatch is a broken rule.
    if (typeof d === 'number' && d !== 1 && typeof want === 'number' && d !== want)
      throw new AutodiffError(`${where}: gradient dim ${k} is ${d}, expected ${want}`);
  });
}
