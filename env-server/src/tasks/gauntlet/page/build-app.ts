import type { AnyChallenge } from '../challenge.js';
import { runGauntletApp } from './runtime-app.js';
import { makePuzzleContext } from './runtime-context.js';

/**
 * The app script: the runtime and every challenge's page code, joined from their function
 * source so the page code is type-checked TypeScript like the rest of the server.
 */
export function buildAppScript(challenges: readonly AnyChallenge[]): string {
  const renderers = challenges
    .map((c) => `  ${JSON.stringify(c.type)}: ${functionSource(c.render, c.type)}`)
    .join(',\n');
  return `'use strict';\n(${functionSource(runGauntletApp, 'runGauntletApp')})(\n${functionSource(makePuzzleContext, 'makePuzzleContext')},\n{\n${renderers}\n});\n`;
}

/** A function's source as an expression; method shorthand (`render(ctx) {}`) is not one, so it is refused. */
export function functionSource(fn: (...args: never[]) => unknown, label: string): string {
  const source = fn.toString();
  if (!/^(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)/.test(source)) {
    throw new Error(
      `${label}: page code must be an arrow function or function expression, got ${source.slice(0, 40)}…`,
    );
  }
  return source;
}
