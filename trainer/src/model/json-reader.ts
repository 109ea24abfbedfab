import { ModelFileError } from './errors.js';
import { readTextFile } from './files.js';

/**
 * Typed reads from a parsed JSON object, each failing with the file and the dotted field name so
 * a broken `config.json` or `adapter_config.json` says exactly what to fix.
 */
export class JsonObjectReader {
  constructor(
    readonly file: string,
    readonly object: Record<string, unknown>,
    private readonly prefix = '',
  ) {}

  static parse(file: string, text: string): JsonObjectReader {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ModelFileError(file, `is not valid JSON (${(error as Error).message})`);
    }
    if (!isPlainObject(value)) throw new ModelFileError(file, `must hold a JSON object (got ${describeValue(value)})`);
    return new JsonObjectReader(file, value);
  }

  static async read(file: string): Promise<JsonObjectReader> {
    return JsonObjectReader.parse(file, await readTextFile(file));
  }

  has(key: string): boolean {
    return this.object[key] !== undefined && this.object[key] !== null;
  }

  raw(key: string): unknown {
    return this.object[key];
  }

  fail(key: string, detail: string): ModelFileError {
    return new ModelFileError(this.file, `${this.prefix}${key} ${detail}`, `${this.prefix}${key}`);
  }

  positiveInt(key: string, fallback?: number): number {
    const value = this.present(key, 'a positive integer', fallback);
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      throw this.fail(key, `must be a positive integer (got ${describeValue(value)})`);
    }
    return value;
  }

  nonNegativeInt(key: string, fallback?: number): number {
    const value = this.present(key, 'a non-negative integer', fallback);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw this.fail(key, `must be a non-negative integer (got ${describeValue(value)})`);
    }
    return value;
  }

  positiveNumber(key: string, fallback?: number): number {
    const value = this.present(key, 'a positive number', fallback);
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw this.fail(key, `must be a positive number (got ${describeValue(value)})`);
    }
    return value;
  }

  number(key: string, fallback?: number): number {
    const value = this.present(key, 'a number', fallback);
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw this.fail(key, `must be a number (got ${describeValue(value)})`);
    return value;
  }

  boolean(key: string, fallback?: boolean): boolean {
    const value = this.present(key, 'true or false', fallback);
    if (typeof value !== 'boolean') throw this.fail(key, `must be true or false (got ${describeValue(value)})`);
    return value;
  }

  string(key: string, fallback?: string): string {
    const value = this.present(key, 'a string', fallback);
    if (typeof value !== 'string') throw this.fail(key, `must be a string (got ${describeValue(value)})`);
    return value;
  }

  /** A nested object, or undefined when the key is absent or null. */
  optionalObject(key: string): JsonObjectReader | undefined {
    if (!this.has(key)) return undefined;
    const value = this.object[key];
    if (!isPlainObject(value)) throw this.fail(key, `must be an object (got ${describeValue(value)})`);
    return new JsonObjectReader(this.file, value, `${this.prefix}${key}.`);
  }

  private present(key: string, expected: string, fallback: unknown): unknown {
    if (this.has(key)) return this.object[key];
    if (fallback !== undefined) return fallback;
    throw this.fail(key, `is missing (expected ${expected})`);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Short rendering of a bad value for error messages; long values are cut. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
