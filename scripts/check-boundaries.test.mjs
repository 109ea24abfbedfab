import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findViolations } from './check-boundaries.mjs';

// Each case plants files in a scratch repository laid out like this one and runs the check on it.
let repo;
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'gauntlet-boundaries-'));
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

function plant(files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  return findViolations(repo);
}

describe('the boundary check', () => {
  it('passes on this repository', () => {
    expect(findViolations()).toEqual([]);
  });

  it('names a type-only import that climbs to a higher layer', () => {
    const problems = plant({
      'env-server/src/actions/types.ts': 'export type Literal = string;\n',
      'env-server/src/observe/axtree.ts': "import type { Literal } from '../actions/types.js';\n",
    });
    expect(problems).toEqual([
      'env-server/src/observe/axtree.ts: imports ../actions/types.js (env-server/src/actions is in a higher layer than env-server/src/observe; move the shared piece down)',
    ]);
  });

  it('names a value import that climbs, in proto/ and across a multi-line import', () => {
    const problems = plant({
      'proto/src/agent/names.ts': "export const NAMES = ['click'];\n",
      'proto/src/rollout/jobs.ts': "import {\n  NAMES,\n} from '../agent/names.js';\nexport const n = NAMES;\n",
    });
    expect(problems).toEqual([
      'proto/src/rollout/jobs.ts: imports ../agent/names.js (proto/src/agent is in a higher layer than proto/src/rollout; move the shared piece down)',
    ]);
  });

  it('names an import between two folders of the same layer, and a re-export', () => {
    const problems = plant({
      'trainer/src/train/step.ts': 'export const step = 1;\n',
      'trainer/src/generate/sample.ts': "export { step } from '../train/step.js';\n",
    });
    expect(problems).toEqual([
      'trainer/src/generate/sample.ts: imports ../train/step.js (trainer/src/train is in the same layer as trainer/src/generate; move the shared piece down)',
    ]);
  });

  it('names a folder that has no layer yet', () => {
    const problems = plant({
      'agent/src/extras/x.ts': "import { a } from '../report/a.js';\nexport const x = a;\n",
      'agent/src/report/a.ts': 'export const a = 1;\n',
    });
    expect(problems).toEqual([
      'agent/src/extras/x.ts: imports ../report/a.js (agent/src/extras has no layer; add it to layers in scripts/check-boundaries.mjs)',
    ]);
  });

  it('lets imports go down or stay in their folder, and lets tests reach up', () => {
    const problems = plant({
      'env-server/src/python/literal.ts': 'export type Literal = string;\n',
      'env-server/src/actions/types.ts':
        "import type { Literal } from '../python/literal.js';\nexport type { Literal };\n",
      'env-server/src/actions/parse.ts':
        "import type { Literal } from './types.js';\nexport const p = (l: Literal) => l;\n",
      'env-server/src/index.ts': "export { p } from './actions/parse.js';\n",
      'env-server/src/python/repr.test.ts': "import { p } from '../actions/parse.js';\np('x');\n",
    });
    expect(problems).toEqual([]);
  });

  it('names files that import each other in a circle, type-only imports included', () => {
    const problems = plant({
      'env-server/src/browser/routes.ts':
        "import type { Policy } from './socket-routes.js';\nexport type Route = Policy;\n",
      'env-server/src/browser/socket-routes.ts':
        "import type { Route } from './routes.js';\nexport type Policy = { r?: Route };\n",
      'proto/src/grpc/generated/a.generated.ts': "import type { B } from './b.generated.js';\nexport type A = B[];\n",
      'proto/src/grpc/generated/b.generated.ts': "import type { A } from './a.generated.js';\nexport type B = A;\n",
    });
    expect(problems).toEqual([
      'import circle: env-server/src/browser/routes.ts ↔ env-server/src/browser/socket-routes.ts (move what they share into a file both import)',
    ]);
  });

  it('still names a service importing another service', () => {
    const problems = plant({ 'rollout-worker/src/env/pool.ts': "import { x } from '@gauntlet/env-server';\n" });
    expect(problems).toEqual([
      'rollout-worker/src/env/pool.ts: imports @gauntlet/env-server (service rollout-worker may not import env-server; share it through proto/)',
    ]);
  });
});
