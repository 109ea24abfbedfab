#!/usr/bin/env node
// The house rule: env-server, rollout-worker, trainer and agent import proto/ and libraries, never
// each other (the agent may spawn their bins); the trainer and the agent never import Playwright. Fails (exit 1) naming every offending import.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const services = ['env-server', 'rollout-worker', 'trainer', 'agent'];
const forbiddenPackages = { trainer: ['playwright', 'playwright-core'], agent: ['playwright', 'playwright-core'] };

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

export function findViolations(repoRoot = root) {
  const problems = [];
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
