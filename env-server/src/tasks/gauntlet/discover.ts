import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHALLENGE_CATEGORIES } from './categories.js';
import { CHALLENGE_TYPE_PIECES, type ChallengeTypeSpec } from './challenge-type.js';

/**
 * Finds the challenge types under `root`: every subfolder's `index` module exports one
 * ChallengeTypeSpec for the type named like the folder (`scroll-to-find` → `scroll_to_find`).
 * Adding a type is adding its folder; nothing lists them. A folder that lacks a piece, or
 * takes another folder's `order` or recognition rank, is an error naming the folder and the piece. The result is
 * in `order` (the spec's order, which seeded plans depend on), not the folders' names.
 */
export async function discoverChallengeTypes(root: URL): Promise<ChallengeTypeSpec[]> {
  const dir = fileURLToPath(root);
  const folders = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const specs: ChallengeTypeSpec[] = [];
  const byOrder = new Map<number, string>();
  const byRank = new Map<number, string>();
  for (const folder of folders) {
    const where = `tasks/gauntlet/challenges/${folder}`;
    // Built: index.js; run from source (tests): index.ts.
    const file = ['index.js', 'index.ts'].map((name) => join(dir, folder, name)).find((path) => existsSync(path));
    if (!file) throw new Error(`${where} has no index: every challenge folder exports its type from index.ts`);
    const exported = Object.values((await import(pathToFileURL(file).href)) as Record<string, unknown>);
    const found = exported.filter(looksLikeSpec);
    if (found.length !== 1)
      throw new Error(
        `${where}/index must export exactly one challenge type (defineChallengeType), found ${found.length}`,
      );
    const spec = found[0]!;
    const missing = CHALLENGE_TYPE_PIECES.filter((piece) => !PIECE_OK[piece](spec[piece]));
    if (missing.length > 0)
      throw new Error(
        `${where} lacks its ${missing.join(', ')}: a challenge type gives ${CHALLENGE_TYPE_PIECES.join(', ')} (see tasks/gauntlet/README.md)`,
      );
    const type = folder.replaceAll('-', '_');
    if (spec.challenge.type !== type)
      throw new Error(`${where} exports challenge type ${JSON.stringify(spec.challenge.type)}: name it ${type}`);
    const taken = byOrder.get(spec.order);
    if (taken) throw new Error(`${where} has order ${spec.order}, already taken by tasks/gauntlet/challenges/${taken}`);
    byOrder.set(spec.order, folder);
    // Two rules of one rank would leave which type a page is to the folders' names.
    const rivals = byRank.get(spec.recognise.rank);
    if (rivals)
      throw new Error(
        `${where} has recognition rank ${spec.recognise.rank}, already taken by tasks/gauntlet/challenges/${rivals}`,
      );
    byRank.set(spec.recognise.rank, folder);
    specs.push(spec);
  }
  return specs.sort((a, b) => a.order - b.order);
}

type Loose = { [piece in (typeof CHALLENGE_TYPE_PIECES)[number]]?: unknown };

/** An export that means to be a type: an object with any of the pieces (so a missing one is named, not ignored). */
function looksLikeSpec(value: unknown): value is ChallengeTypeSpec & Loose {
  return (
    typeof value === 'object' && value !== null && CHALLENGE_TYPE_PIECES.some((piece) => Object.hasOwn(value, piece))
  );
}

const PIECE_OK: Record<(typeof CHALLENGE_TYPE_PIECES)[number], (value: unknown) => boolean> = {
  order: (v) => Number.isSafeInteger(v) && (v as number) > 0,
  category: (v) => (CHALLENGE_CATEGORIES as readonly unknown[]).includes(v),
  challenge: (v) => {
    const c = v as Record<string, unknown> | undefined;
    return typeof c?.type === 'string' && typeof c.generate === 'function' && typeof c.render === 'function';
  },
  oracle: (v) => typeof v === 'function',
  recognise: (v) => {
    const r = v as Record<string, unknown> | undefined;
    return Number.isFinite(r?.rank) && typeof r?.matches === 'function';
  },
};
