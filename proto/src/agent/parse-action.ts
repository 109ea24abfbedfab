import { ACTION_NAMES } from '../wire/action-names.js';

export interface ParseActionOptions {
  /** Keep every call found (one per line, in order) instead of the first: the env's multi_action. */
  multiAction?: boolean;
  /** Sent when no call is found (default `noop()`). */
  fallback?: string;
}

export interface ParsedAction {
  /** The action string for the env: the call(s) exactly as written, or the fallback. */
  action: string;
  /** Nothing parsed: `action` is the fallback. */
  fallback: boolean;
  /** Why it fell back. */
  reason?: string;
}

/** Longest call taken from a reply; a longer one is not an action a policy meant. */
const MAX_CALL_CHARS = 8_192;
/** Call starts that do not close, tried before a region is given up: keeps parsing linear on adversarial replies. */
const MAX_FAILED_STARTS = 32;
const CALL_START = new RegExp(`\\b(?:${ACTION_NAMES.join('|')})\\s*\\(`, 'g');
const ACTION_MARKER = /\bactions?\s*:/i;

/**
 * The action in a policy's reply, tolerant like common agent scripts: reasoning before a closing
 * `</think>` is skipped; a fenced code block or the text after an `Action:` marker is searched
 * first; the first call of a known action — balanced brackets, quotes and escapes respected —
 * is taken as written. With nothing found it falls back to `noop()` and says so.
 * Linear in the reply's length: call scans are bounded in length and in number of failures.
 */
export function parseAction(reply: string, options: ParseActionOptions = {}): ParsedAction {
  const fallback = options.fallback ?? 'noop()';
  const thinkEnd = reply.lastIndexOf('</think>');
  const text = thinkEnd >= 0 ? reply.slice(thinkEnd + '</think>'.length) : reply;
  const regions = [fenced(text), afterMarker(text), text].filter((r): r is string => r !== undefined);
  for (const region of regions) {
    const calls = findCalls(region, options.multiAction ?? false);
    if (calls.length > 0) return { action: calls.join('\n'), fallback: false };
  }
  return {
    action: fallback,
    fallback: true,
    reason: text.trim() === '' ? 'empty reply' : 'no action call found in the reply',
  };
}

/** The body of the first ``` code block (its language tag skipped), when it is closed. */
function fenced(text: string): string | undefined {
  const open = text.indexOf('```');
  if (open < 0) return undefined;
  const lineEnd = text.indexOf('\n', open + 3);
  const bodyStart = lineEnd < 0 ? open + 3 : lineEnd + 1;
  const close = text.indexOf('```', bodyStart);
  return close < 0 ? undefined : text.slice(bodyStart, close);
}

function afterMarker(text: string): string | undefined {
  const match = ACTION_MARKER.exec(text);
  return match ? text.slice(match.index + match[0].length) : undefined;
}

function findCalls(text: string, all: boolean): string[] {
  const calls: string[] = [];
  let failed = 0;
  CALL_START.lastIndex = 0;
  for (let match = CALL_START.exec(text); match; match = CALL_START.exec(text)) {
    // page.click(...) is a method in prose or code, not an action (the env reads it the same way).
    if (text[match.index - 1] === '.') continue;
    const end = callEnd(text, match.index + match[0].length - 1);
    if (end < 0) {
      if (++failed > MAX_FAILED_STARTS) break;
      continue;
    }
    calls.push(text.slice(match.index, end).replace(/\s*\(/, '('));
    if (!all) break;
    CALL_START.lastIndex = end;
  }
  return calls;
}

/** Index just past the bracket that closes the `(` at `open`, or -1 when it does not close in time. */
function callEnd(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  const limit = Math.min(text.length, open + MAX_CALL_CHARS);
  for (let i = open; i < limit; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = '';
      else if (c === '\n') return -1; // a Python string literal cannot span lines
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') {
      depth -= 1;
      if (depth === 0) return c === ')' ? i + 1 : -1;
    }
  }
  return -1;
}
