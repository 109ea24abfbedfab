import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CHALLENGE_CATEGORIES } from '../../src/tasks/gauntlet/categories.js';
import { CHALLENGE_SPECS } from '../../src/tasks/gauntlet/challenges/index.js';
import { discoverChallengeTypes } from '../../src/tasks/gauntlet/discover.js';

/** A folder's index as plain JS (discovery loads index.js first), with the pieces given. */
function plantIndex(root: string, folder: string, pieces: Record<string, string>): void {
  mkdirSync(join(root, folder));
  const body = Object.entries(pieces)
    .map(([piece, value]) => `  ${piece}: ${value},`)
    .join('\n');
  writeFileSync(join(root, folder, 'index.js'), `export const planted = {\n${body}\n};\n`);
}

const CHALLENGE = `{ type: 'planted_type', title: 'Planted', generate: () => ({}), render: (ctx) => ctx }`;

/**
 * What the README's checklist asks of a challenge folder: the discovered types are the spec's
 * list in order, each recognised by the oracle; a folder that lacks a piece stops discovery
 * with a message naming the folder and the piece.
 */
export function describeChallengeFolders(): void {
  describe('challenge folders', () => {
    let root: string | undefined;
    afterEach(() => {
      if (root) rmSync(root, { recursive: true, force: true });
      root = undefined;
    });

    it('every folder gives its pieces; orders run 1..N; every category is used; each type has its own recognition rank', () => {
      expect(CHALLENGE_SPECS.map((spec) => spec.order)).toEqual(CHALLENGE_SPECS.map((_, i) => i + 1));
      expect(new Set(CHALLENGE_SPECS.map((spec) => spec.category))).toEqual(new Set(CHALLENGE_CATEGORIES));
      const ranks = CHALLENGE_SPECS.map((spec) => spec.recognise.rank);
      expect(new Set(ranks).size).toBe(CHALLENGE_SPECS.length);
    });

    it('a folder without its oracle is a clear error naming the folder and the piece', async () => {
      root = mkdtempSync(join(tmpdir(), 'gauntlet-challenges-'));
      plantIndex(root, 'planted-type', { order: '1', category: "'navigation'", challenge: CHALLENGE });
      await expect(discoverChallengeTypes(pathToFileURL(`${root}/`))).rejects.toThrow(
        'tasks/gauntlet/challenges/planted-type lacks its oracle, recognise: a challenge type gives order, category, challenge, oracle, recognise',
      );
    });

    it('a complete planted folder is found; one named unlike its type, or taking a used order or recognition rank, is refused', async () => {
      root = mkdtempSync(join(tmpdir(), 'gauntlet-challenges-'));
      const complete = {
        order: '2',
        category: "'media'",
        challenge: CHALLENGE,
        oracle: '() => ({ code: "AAAAAA" })',
        recognise: '{ rank: 5, matches: () => false }',
      };
      plantIndex(root, 'planted-type', complete);
      const [found] = await discoverChallengeTypes(pathToFileURL(`${root}/`));
      expect(found).toMatchObject({ order: 2, category: 'media', challenge: { type: 'planted_type' } });
      plantIndex(root, 'other-name', { ...complete, order: '3' });
      await expect(discoverChallengeTypes(pathToFileURL(`${root}/`))).rejects.toThrow(
        'tasks/gauntlet/challenges/other-name exports challenge type "planted_type": name it other_name',
      );
      rmSync(join(root, 'other-name'), { recursive: true });
      plantIndex(root, 'planted-two', { ...complete, challenge: CHALLENGE.replace('planted_type', 'planted_two') });
      await expect(discoverChallengeTypes(pathToFileURL(`${root}/`))).rejects.toThrow(
        'tasks/gauntlet/challenges/planted-type has order 2, already taken by tasks/gauntlet/challenges/planted-two',
      );
      // A new folder name: the module cache would hand back planted-two's first index.
      rmSync(join(root, 'planted-two'), { recursive: true });
      plantIndex(root, 'planted-three', {
        ...complete,
        order: '3',
        challenge: CHALLENGE.replace('planted_type', 'planted_three'),
      });
      await expect(discoverChallengeTypes(pathToFileURL(`${root}/`))).rejects.toThrow(
        'tasks/gauntlet/challenges/planted-type has recognition rank 5, already taken by tasks/gauntlet/challenges/planted-three',
      );
    });
  });
}
