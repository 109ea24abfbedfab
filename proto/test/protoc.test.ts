import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Our own TypeScript tooling (protobufjs) accepts things stock protoc rejects, so every .proto in
 * the repo is compiled with Debian's protoc (C++, Java, Python) and gRPC's Python plugin: what a
 * Python, Go or Java user generating stubs runs. `npm test` installs both (scripts/ensure-system.mjs); a machine
 * without them fails here with the command that installs them, never skips.
 */
const INSTALL = 'apt-get install -y protobuf-compiler protobuf-compiler-grpc libprotobuf-dev';
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', '.cache']);

function* protoFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !SKIP_DIRS.has(entry.name)) yield* protoFiles(join(dir, entry.name));
    else if (entry.isFile() && entry.name.endsWith('.proto')) yield join(dir, entry.name);
  }
}

function which(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

describe('every .proto compiles with stock protoc', () => {
  const out = mkdtempSync(join(tmpdir(), 'gauntlet-protoc-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const files = [...protoFiles(repoRoot)];

  it('finds the contract', () => {
    expect(files.map((f) => relative(repoRoot, f))).toContain(join('proto', 'env.proto'));
  });

  it.each(files.map((f) => [relative(repoRoot, f), f]))(
    '%s → C++, Java, Python and Python gRPC stubs',
    (_name, file) => {
      const protoc = which('protoc');
      const plugin = which('grpc_python_plugin');
      if (!protoc || !plugin)
        expect.fail(
          `protoc and grpc_python_plugin are needed (missing: ${[!protoc && 'protoc', !plugin && 'grpc_python_plugin'].filter(Boolean).join(', ')}); install them with:\n  ${INSTALL}`,
        );
      const target = mkdtempSync(join(out, 'stubs-'));
      const run = spawnSync(
        protoc,
        [
          `--proto_path=${dirname(file)}`,
          `--cpp_out=${target}`,
          `--java_out=${target}`,
          `--python_out=${target}`,
          `--plugin=protoc-gen-grpc_python=${plugin}`,
          `--grpc_python_out=${target}`,
          file,
        ],
        { encoding: 'utf8' },
      );
      const hint = /google\/protobuf\/.*not found/.test(run.stderr)
        ? `\n(the well-known types are missing; ${INSTALL})`
        : '';
      expect(run.status, `${run.stderr}${hint}`).toBe(0);
      const stem = relative(dirname(file), file).replace(/\.proto$/, '');
      const services = /^\s*service\s/m.test(readFileSync(file, 'utf8'));
      const expected = [
        `${stem}.pb.cc`,
        `${stem}.pb.h`,
        `${stem}_pb2.py`,
        ...(services ? [`${stem}_pb2_grpc.py`] : []),
      ];
      expect(expected.filter((made) => !existsSync(join(target, made)))).toEqual([]);
    },
  );
});
