// Import circles among the shipped files of one package's src/ (type-only imports count: a circle
// of types still means neither file can be read, moved or tested without the other). Generated
// code (`*.generated.ts`, protobuf's own recursive Struct/Value/ListValue) is left out.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const importPattern =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function* shippedFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* shippedFiles(path);
    else if (/\.ts$/.test(name) && !/\.(test|generated)\.ts$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

function localImports(file) {
  const targets = [];
  for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    if (existsSync(target)) targets.push(target);
  }
  return targets;
}

/** Each circle as its files (absolute paths, sorted); strongly connected parts of the import graph. */
export function importCycles(srcDir) {
  if (!existsSync(srcDir)) return [];
  const graph = new Map();
  for (const file of shippedFiles(srcDir)) graph.set(file, localImports(file));
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, edge] = frame;
      if (edge === 0) {
        index.set(node, next);
        low.set(node, next++);
        stack.push(node);
        onStack.add(node);
      }
      const targets = (graph.get(node) ?? []).filter((t) => graph.has(t));
      if (edge < targets.length) {
        frame[1]++;
        const target = targets[edge];
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) !== index.get(node)) continue;
      const part = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        part.push(member);
      } while (member !== node);
      if (part.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(part.sort());
    }
  }
  return cycles;
}
