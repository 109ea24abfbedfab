#!/usr/bin/env node
// Makes sure the system pieces Gauntlet needs are present before `npm start` / `npm test`:
// installs them with apt-get when we are root on Debian/Ubuntu, otherwise says exactly what to run.
// Usage: node scripts/ensure-system.mjs chromium [redis] [protoc] [headed]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';

const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
];

const checks = {
  chromium: {
    present: () =>
      Boolean(process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) ||
      playwrightBrowserPresent() ||
      CHROMIUM_CANDIDATES.some((p) => existsSync(p)),
    packages: ['chromium-headless-shell'],
    manual: 'apt-get install -y chromium-headless-shell   (or set CHROMIUM_PATH to a Chromium binary)',
  },
  // proto/test/protoc.test.ts compiles every .proto with stock protoc and gRPC's Python plugin;
  // libprotobuf-dev holds the well-known types (google/protobuf/struct.proto) env.proto imports.
  protoc: {
    present: () => commandExists('protoc') && commandExists('grpc_python_plugin') && wellKnownTypesPresent(),
    packages: ['protobuf-compiler', 'protobuf-compiler-grpc', 'libprotobuf-dev'],
    manual: 'apt-get install -y protobuf-compiler protobuf-compiler-grpc libprotobuf-dev',
  },
  // test/record records a person in a visible browser: a virtual display (Xvfb, which the test
  // starts itself) and a Chromium that can open a window (the headless shell cannot).
  headed: {
    present: () => commandExists('Xvfb') && existsSync('/usr/bin/chromium'),
    packages: ['xvfb', 'chromium'],
    manual: 'apt-get install -y xvfb chromium',
  },
  // `npm run learn` starts a private redis-server only when no Redis answers at REDIS_URL.
  redis: {
    present: () => commandExists('redis-server') || redisAnswers(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    packages: ['redis-server'],
    manual: 'apt-get install -y redis-server',
  },
};

function playwrightBrowserPresent() {
  try {
    const out = execFileSync(
      process.execPath,
      ['-e', "import('playwright-core').then(m=>{try{process.stdout.write(m.chromium.executablePath())}catch{}})"],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return out !== '' && existsSync(out);
  } catch {
    return false;
  }
}

function wellKnownTypesPresent() {
  // protoc searches its own include folder; compiling one well-known file proves it has them.
  return (
    spawnSync('protoc', ['--descriptor_set_out=/dev/null', 'google/protobuf/struct.proto'], {
      stdio: 'ignore',
      cwd: tmpdir(),
    }).status === 0
  );
}

function redisAnswers(url) {
  let host = '127.0.0.1';
  let port = 6379;
  try {
    const parsed = new URL(url);
    host = parsed.hostname || host;
    port = Number(parsed.port || port);
  } catch {
    return false;
  }
  const probe = `const s=require('net').connect(${port},${JSON.stringify(host)});s.setTimeout(1000,()=>process.exit(1));s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));`;
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function aptInstall(packages) {
  const isRoot = process.getuid?.() === 0;
  const sudo = !isRoot && commandExists('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!commandExists('apt-get') || (!isRoot && !sudo)) return false;
  const prefix = isRoot ? [] : ['sudo', '-n'];
  const run = (args) =>
    spawnSync(prefix[0] ?? args[0], prefix.length ? [...prefix.slice(1), ...args] : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  console.error(`[gauntlet] installing ${packages.join(' ')} with apt-get …`);
  return (
    run(['apt-get', 'update', '-qq']) &&
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages])
  );
}

const wanted = process.argv.slice(2);
const missing = [];
for (const name of wanted) {
  const check = checks[name];
  if (!check) {
    console.error(
      `[gauntlet] unknown system dependency ${JSON.stringify(name)} (known: ${Object.keys(checks).join(', ')})`,
    );
    process.exit(2);
  }
  if (check.present()) continue;
  if (!(aptInstall(check.packages) && check.present())) missing.push(check);
}
if (missing.length > 0) {
  console.error('[gauntlet] missing system dependencies; install them and retry:');
  for (const check of missing) console.error(`  ${check.manual}`);
  process.exit(1);
}
