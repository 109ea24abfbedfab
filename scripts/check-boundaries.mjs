#!/usr/bin/env node
// The house rules. Between packages: env-server, rollout-worker, trainer and agent import proto/
// and libraries, never each other (the agent may spawn their bins); the trainer and the agent
// never import Playwright. Inside a package: its top-level folders under src/ are layered (below),
// an import, type-only ones included, never climbs, and no files import each other in a circle.
// Fails (exit 1) naming every offending import.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles } from './import-cycles.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const services = ['env-server', 'rollout-worker', 'trainer', 'agent'];
const forbiddenPackages = { trainer: ['playwright', 'playwright-core'], agent: ['playwright', 'playwright-core'] };

/**
 * Each package's layers, lowest first: the top-level folders (and files, without `.ts`) of
 * `<pkg>/src/`. A file may import its own folder and any folder of a lower layer; never a higher
 * layer, nor another folder of its own layer (folders sharing a layer are independent). A new
 * folder must be placed here before it may import or be imported. docs/layers.md says why.
 */
export const layers = {
  proto: [
    ['errors', 'random'],
    ['wire', 'deadline', 'chromium'],
    ['grpc'],
    ['client'],
    ['policy-server', 'rollout', 'cli'],
    ['agent'],
    ['index'],
  ],
  'env-server': [
    ['deadline', 'python', 'settings'],
    ['config'],
    ['observe', 'browser'],
    ['actions', 'record'],
    ['tasks'],
    ['sessions', 'collect'],
    ['server'],
    ['cli'],
    ['index'],
  ],
  'rollout-worker': [['metrics', 'policies'], ['env'], ['episode'], ['queue'], ['cli'], ['index']],
  trainer: [['engine'], ['model'], ['lora'], ['graph'], ['generate', 'train'], ['serve'], ['rl'], ['cli']],
  agent: [['env', 'report'], ['policies', 'local', 'view', 'record'], ['cli'], ['index']],
};

function* sourceFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(c|m)?[jt]s$/.test(name)) yield path;
  }
}

const importPattern =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** The layer (top-level folder or file under src/) `path` belongs to, or undefined outside src/. */
function layerOf(srcDir, path) {
  const inside = relative(srcDir, path);
  if (inside.startsWith('..') || inside === '') return undefined;
  return inside.split(sep)[0].replace(/(\.test)?\.(c|m)?[jt]s$/, '');
}

function layerProblems(repoRoot, pkg, file, spec) {
  const order = layers[pkg];
  // A test sits above what it tests (it may build the whole stack), so only shipped files are held.
  if (!order || !spec.startsWith('.') || /\.test\.(c|m)?[jt]s$/.test(file)) return [];
  const srcDir = join(repoRoot, pkg, 'src');
  const from = layerOf(srcDir, file);
  const to = layerOf(srcDir, resolve(dirname(file), spec));
  if (from === undefined || to === undefined || from === to) return [];
  const rank = (layer) => order.findIndex((names) => names.includes(layer));
  const where = relative(repoRoot, file);
  const unplaced = [from, to].filter((layer) => rank(layer) < 0);
  if (unplaced.length > 0)
    return [
      `${where}: imports ${spec} (${pkg}/src/${unplaced[0]} has no layer; add it to layers in scripts/check-boundaries.mjs)`,
    ];
  if (rank(to) < rank(from)) return [];
  const why = rank(to) === rank(from) ? 'is in the same layer as' : 'is in a higher layer than';
  return [`${where}: imports ${spec} (${pkg}/src/${to} ${why} ${pkg}/src/${from}; move the shared piece down)`];
}

export function findViolations(repoRoot = root) {
  const problems = [];
  for (const pkg of Object.keys(layers).filter((p) => !services.includes(p))) {
    for (const file of sourceFiles(join(repoRoot, pkg, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(importPattern))
        problems.push(...layerProblems(repoRoot, pkg, file, match[1] ?? match[2] ?? match[3]));
    }
  }
  for (const pkg of Object.keys(layers)) {
    for (const cycle of importCycles(join(repoRoot, pkg, 'src')))
      problems.push(
        `import circle: ${cycle.map((file) => relative(repoRoot, file)).join(' ↔ ')} (move what they share into a file both import)`,
      );
  }
  for (const service of services) {
    const serviceDir = join(repoRoot, service);
    for (const file of sourceFiles(serviceDir)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(importPattern)) {
        const spec = match[1] ?? match[2] ?? match[3];
        const where = relative(repoRoot, file);
        for (const other of services.filter((s) => s !== service)) {
          const viaPackage = spec === `@gauntlet/${other}` || spec.startsWith(`@gauntlet/${other}/`);
          const viaPath = spec.startsWith('.') && resolve(dirname(file), spec).startsWith(join(repoRoot, other) + '/');
          if (viaPackage || viaPath)
            problems.push(
              `${where}: imports ${spec} (service ${service} may not import ${other}; share it through proto/)`,
            );
        }
        problems.push(...layerProblems(repoRoot, service, file, spec));
        for (const pkg of forbiddenPackages[service] ?? []) {
          if (spec === pkg || spec.startsWith(`${pkg}/`))
            problems.push(`${where}: imports ${spec} (${service} may not depend on ${pkg})`);
        }
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = findViolations();
  if (problems.length > 0) {
    console.error(`Dependency rule broken (${problems.length}):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}
