import { ActionError, type Literal } from '../types.js';
import type { Params } from './define.js';

/**
 * Typed reads of bound parameters. The binder already checked types and filled defaults; these
 * guards keep a binder/handler mismatch from reaching Playwright as `undefined`, and the defaults
 * repeat BrowserGym's so a handler also works when called directly.
 */
export function str(params: Params, name: string, fallback?: string): string {
  const value = params[name] ?? fallback;
  if (typeof value !== 'string') throw wrongType(name, 'a string', value);
  return value;
}

export function num(params: Params, name: string, fallback?: number): number {
  const value = params[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(name, 'a number', value);
  return value;
}

export function bool(params: Params, name: string, fallback: boolean): boolean {
  const value = params[name] ?? fallback;
  if (typeof value !== 'boolean') throw wrongType(name, 'a bool', value);
  return value;
}

/** A string or a list of strings (select_option's options, upload_file's file). */
export function strList(params: Params, name: string): string[] {
  const value = params[name];
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v): v is string => typeof v === 'string'))
    throw wrongType(name, 'a string or a list of strings', value);
  return list;
}

export function oneOf<T extends string>(params: Params, name: string, allowed: readonly T[], fallback: T): T {
  const value = str(params, name, fallback);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ActionError(
      'ValueError',
      `${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got '${value}'`,
    );
  }
  return value as T;
}

/** Every item of a list parameter must be one of `allowed` (click's modifiers). */
export function listOf<T extends string>(params: Params, name: string, allowed: readonly T[]): T[] {
  const value = params[name] ?? [];
  const list = Array.isArray(value) ? value : [value];
  const bad = list.find((v) => typeof v !== 'string' || !(allowed as readonly string[]).includes(v));
  if (bad !== undefined) {
    throw new ActionError('ValueError', `${name} must be among ${allowed.join(', ')}, got ${JSON.stringify(bad)}`);
  }
  return list as T[];
}

function wrongType(name: string, expected: string, value: Literal | undefined): ActionError {
  return new ActionError(
    'TypeError',
    `${name} must be ${expected}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
  );
}
