import { pyRepr } from '../../python/repr.js';
import { ActionError } from '../types.js';

const SNIPPET_CHARS = 24;

/**
 * Why and where a parse stopped. Cheap on purpose: the non-strict scanner tries a call at
 * every `name(` in free prose and discards most failures, so the located, quoted message is
 * only built (by `toSyntaxError`) when a failure is reported. Not an Error subclass for the same
 * reason: an Error captures a stack trace when built, two thirds of the cost of a failed attempt
 * on degenerate input such as 'f(' repeated.
 */
export class ParseFailure {
  readonly name = 'ParseFailure';
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}

  get message(): string {
    return this.reason;
  }
}

/** Python's SyntaxError, saying where the text went wrong and quoting it. */
export function toSyntaxError(text: string, failure: ParseFailure): ActionError {
  const { offset, reason } = failure;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const rest = text.slice(offset).split('\n', 1)[0] ?? '';
  const ellipsis = rest.length > SNIPPET_CHARS ? '...' : '';
  const found = offset >= text.length ? 'end of input' : pyRepr(rest.slice(0, SNIPPET_CHARS)) + ellipsis;
  return new ActionError('SyntaxError', `${reason} at line ${line}, column ${column}: ${found}`);
}
