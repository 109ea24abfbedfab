import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// scripts/check-boundaries.mjs guards the services; this guards the contract package they all
// import: the SDK and schemas in proto/ never reach into a service, never drive a browser and
// never load a model runtime (a rollout worker imports proto/ without either).
const protoRoot = fileURLToPath(new URL('..', import.meta.url));
const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

describe('proto/ depends on no service', () => {
  it('imports neither a service package, a path outside proto/, Playwright nor onnxruntime', () => {
    const problems: string[] = [];
    for (const file of sources(join(protoRoot, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
        const spec = (match[1] ?? match[2])!;
        const outside = spec.startsWith('.') && !resolve(dirname(file), spec).startsWith(protoRoot);
        if (
          /^@gauntlet\/(env-server|rollout-worker|trainer|agent)/.test(spec) ||
          /^(playwright|onnxruntime)/.test(spec) ||
          outside
        )
          problems.push(`${relative(protoRoot, file)}: ${spec}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
