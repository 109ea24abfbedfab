import { parseCallAt } from './parseCall.js';
import { ParseFailure, toSyntaxError } from './parseErrors.js';
import { lineEnd } from './parseTokens.js';
import { ActionError, type ParsedCall } from '../types.js';

export interface ParseOptions {
  /** Reject anything but calls (BrowserGym `strict=True`). Default false: skip prose. */
  strict?: boolean;
  /** Allow several calls per action string. Default true, as in BrowserGym's HighLevelActionSet. */
  multiAction?: boolean;
  /** Longer strings are refused before any scanning. Default: no limit. */
  maxChars?: number;
  /** More calls than this are refused, and none of them runs. Default: no limit. */
  maxCalls?: number;
}

// The name must touch its '(' in prose: "the option (3)" or "Step (2)" would otherwise become
// calls. A name right after '.' is part of a dotted name (page.click(...)), never an action, and
// neither is the tail of a longer run ("3click("). The lookbehind makes the scan linear: only the
// first character of a run can start a match, so a long run of letters is read once, not once
// per letter.
const CALL_START = /(?<![\p{ID_Continue}.])[\p{ID_Start}_][\p{ID_Continue}]*\(/gu;

/** Parses an action string into calls; never evaluates anything. Throws ActionError. */
export function parseActions(text: string, options: ParseOptions = {}): ParsedCall[] {
  if (options.maxChars !== undefined && text.length > options.maxChars) {
    throw new ActionError(
      'ValueError',
      `Received an action of ${text.length} characters; the server accepts at most ${options.maxChars}.`,
    );
  }
  const calls = options.strict ? parseStrictOrThrow(text) : scanForCalls(text);
  if (calls.length === 0) throw new ActionError('ValueError', 'Received an empty action.');
  if (options.multiAction === false && calls.length > 1) {
    throw new ActionError('ValueError', 'Received a multi-action, only single-actions are allowed.');
  }
  if (options.maxCalls !== undefined && calls.length > options.maxCalls) {
    throw new ActionError(
      'ValueError',
      `Received ${calls.length} actions in one step; the server runs at most ${options.maxCalls} per step, so none was run.`,
    );
  }
  return calls;
}

/** Every well-formed call in free text; a fragment that does not parse is prose, skipped. */
function scanForCalls(text: string): ParsedCall[] {
  const calls: ParsedCall[] = [];
  const pattern = new RegExp(CALL_START.source, CALL_START.flags);
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    try {
      const { call, end } = parseCallAt(text, match.index);
      calls.push(call);
      pattern.lastIndex = end;
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
    }
  }
  return calls;
}

function parseStrictOrThrow(text: string): ParsedCall[] {
  try {
    return parseStrict(text);
  } catch (error) {
    throw error instanceof ParseFailure ? toSyntaxError(text, error) : error;
  }
}

/** Calls separated by newlines or ';', with blank lines and comments; nothing else. */
function parseStrict(text: string): ParsedCall[] {
  const calls: ParsedCall[] = [];
  let separated = true;
  let pos = 0;
  while (pos < text.length) {
    const ch = text[pos] ?? '';
    if (ch === '\n' || ch === ';') {
      separated = true;
      pos += 1;
    } else if (/\s/.test(ch)) {
      pos += 1;
    } else if (ch === '#') {
      pos = lineEnd(text, pos);
    } else if (!separated) {
      throw new ParseFailure(pos, "expected a newline or ';' between calls");
    } else {
      const { call, end } = parseCallAt(text, pos);
      calls.push(call);
      pos = end;
      separated = false;
    }
  }
  return calls;
}
