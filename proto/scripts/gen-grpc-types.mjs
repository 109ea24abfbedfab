#!/usr/bin/env node
// Regenerates the TypeScript types of env.proto's messages into src/grpc/generated with
// @grpc/proto-loader's pure-JS generator (no protoc download). The flags describe exactly what
// src/grpc/definition.ts asks the loader for (keepCase, longs as Number, enums as String,
// defaults, oneofs), so the types match the objects at runtime. A test regenerates into a
// temporary folder and fails when the checked-in files are stale.
// Usage: node proto/scripts/gen-grpc-types.mjs [outDir]
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const protoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

export const GEN_FLAGS = [
  '--keepCase',
  '--longs',
  'Number',
  '--enums',
  'String',
  '--defaults',
  '--oneofs',
  '--includeComments',
  '--grpcLib',
  '@grpc/grpc-js',
  '--targetFileExtension',
  '.generated.ts',
  '--importFileExtension',
  '.generated.js',
];

export function generate(outDir = join(protoRoot, 'src/grpc/generated')) {
  rmSync(outDir, { recursive: true, force: true });
  const bin = join(dirname(require.resolve('@grpc/proto-loader/package.json')), 'build/bin/proto-loader-gen-types.js');
  // Run from proto/ with a relative path: the generated headers then name `env.proto`, not this checkout's path.
  execFileSync(process.execPath, [bin, ...GEN_FLAGS, '-O', outDir, 'env.proto'], {
    cwd: protoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return outDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = generate(process.argv[2] ? resolve(process.argv[2]) : undefined);
  process.stdout.write(`generated ${out}\n`);
}
