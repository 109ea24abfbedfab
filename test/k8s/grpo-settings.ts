import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { REPO } from './render.js';

export const IMAGE_RECIPES = '/app/trainer/recipes/';

/** `${NAME:-default}` / `${NAME-default}` with no variables set: the defaults Compose uses. */
export const withDefaults = (text: string) => text.replace(/\$\{\w+:?-([^}]*)\}/g, (_, fallback: string) => fallback);

/** The settings `grpo` runs with: the --config file's (read from the repo), then the flags over them. */
export function effectiveSettings(args: readonly string[]): Record<string, string> {
  expect(args[0]).toBe('grpo');
  const flags: Record<string, string> = {};
  for (let i = 1; i < args.length; i++) {
    const name = args[i]!.replace(/^--/, '');
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) flags[name] = 'true';
    else {
      flags[name] = value;
      i++;
    }
  }
  const config = flags['config'];
  expect(config, 'grpo --config names a recipe the image ships').toMatch(new RegExp(`^${IMAGE_RECIPES}`));
  const recipe = parse(readFileSync(join(REPO, 'trainer/recipes', config!.slice(IMAGE_RECIPES.length)), 'utf8'));
  const settings = Object.fromEntries(Object.entries(recipe as object).map(([k, v]) => [k, String(v)]));
  // 3e-3 in a flag and 0.003 from YAML are one value.
  const canonical = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? String(Number(v)) : v);
  return Object.fromEntries(Object.entries({ ...settings, ...flags }).map(([k, v]) => [k, canonical(v)]));
}
