import { RuntimeError } from './errors.js';
import type { Tensor } from './graph.js';
import type { HostTensor } from './host-tensor.js';
import { elementCount } from './host-tensor.js';

/**
 * Checks feeds against the graph's declared inputs before they reach the runtime: every name
 * known and present, dtype and rank as declared, fixed dims equal, and each symbolic dim bound to
 * one size across all inputs. Errors name the input and the dim.
 */
export function checkFeeds(declared: readonly Tensor[], feeds: Readonly<Record<string, HostTensor>>): void {
  const byName = new Map(declared.map((t) => [t.name, t]));
  for (const name of Object.keys(feeds)) {
    if (!byName.has(name)) throw new RuntimeError(`unknown input '${name}' (inputs: ${[...byName.keys()].join(', ')})`);
  }
  const bound = new Map<string, { size: number; where: string }>();
  for (const t of declared) {
    const feed = feeds[t.name];
    if (!feed) throw new RuntimeError(`input '${t.name}' (${t.dtype}[${t.shape.join(', ')}]) was not fed`);
    if (feed.dtype !== t.dtype) throw new RuntimeError(`input '${t.name}' must be ${t.dtype}, got ${feed.dtype}`);
    if (feed.dims.length !== t.shape.length)
      throw new RuntimeError(
        `input '${t.name}' must have rank ${t.shape.length} [${t.shape.join(', ')}], got dims [${feed.dims.join(', ')}]`,
      );
    if (feed.data.length !== elementCount(feed.dims))
      throw new RuntimeError(`input '${t.name}' has ${feed.data.length} values for dims [${feed.dims.join(', ')}]`);
    t.shape.forEach((d, i) => {
      const size = feed.dims[i]!;
      if (typeof d === 'number') {
        if (d !== size) throw new RuntimeError(`input '${t.name}' dim ${i} must be ${d}, got ${size}`);
        return;
      }
      const prior = bound.get(d);
      if (prior && prior.size !== size)
        throw new RuntimeError(
          `dim '${d}' is ${prior.size} in ${prior.where} but ${size} in input '${t.name}' dim ${i}`,
        );
      if (!prior) bound.set(d, { size, where: `input '${t.name}' dim ${i}` });
    });
  }
}
