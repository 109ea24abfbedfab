import { GauntletError, ValidationError } from '@gauntlet/proto';
import type { ModelTokenizer } from '../model/tokenizer.js';
import type { CompileBudget } from './compile-budget.js';
import type { TokenConstraint } from './constraint.js';
import { jsonSchemaRegex } from './json-schema-regex.js';
import { choiceRegex, compileRegex, RegexAutomaton, type RegexAutomatonData } from './regex-automaton.js';

/** What a request may constrain its output to: at most one of these (vLLM's structured_outputs). */
export interface StructuredSpec {
  regex?: string | null | undefined;
  choice?: string[] | null | undefined;
  /** A JSON Schema (object or boolean). */
  json?: unknown;
  grammar?: string | null | undefined;
}

/**
 * Token-level view of a regex automaton: for each automaton state, which vocabulary tokens keep
 * the text a prefix of a match, and where each leads. Computed per state on first use and cached,
 * so the whole vocabulary is scanned once per state, not once per step.
 */
export class TokenAutomaton {
  private readonly byState = new Map<number, { tokens: number[]; next: number[] }>();

  constructor(
    readonly regex: RegexAutomaton,
    /** Token id → its text; null for tokens that cannot appear (special, or a partial UTF-8 character). */
    private readonly tokenTexts: readonly (string | null)[],
    readonly eosIds: readonly number[],
  ) {}

  get vocabSize(): number {
    return this.tokenTexts.length;
  }

  transitions(state: number): { tokens: number[]; next: number[] } {
    let known = this.byState.get(state);
    if (!known) {
      known = { tokens: [], next: [] };
      this.tokenTexts.forEach((text, id) => {
        if (!text) return;
        const next = this.regex.walk(state, text);
        if (next >= 0) {
          known!.tokens.push(id);
          known!.next.push(next);
        }
      });
      this.byState.set(state, known);
    }
    return known;
  }
}

/**
 * Exact regex constraint: a token is allowed only if the text stays a prefix of a match and a
 * match can still be completed within the tokens left (one character per token at worst, which a
 * byte-level vocabulary always offers for ASCII); end-of-sequence only on a complete match.
 */
export class RegexConstraint implements TokenConstraint {
  private state: number;

  constructor(private readonly automaton: TokenAutomaton) {
    this.state = automaton.regex.initial;
  }

  get complete(): boolean {
    return this.automaton.regex.finals.has(this.state);
  }

  get minTokens(): number {
    // One character per token at worst, which is also how allowedNext counts.
    return this.automaton.regex.distance[this.automaton.regex.initial]!;
  }

  allowedNext(remaining: number): Uint8Array {
    const mask = new Uint8Array(this.automaton.vocabSize);
    const { tokens, next } = this.automaton.transitions(this.state);
    const distance = this.automaton.regex.distance;
    tokens.forEach((id, i) => {
      if (distance[next[i]!]! <= remaining - 1) mask[id] = 1;
    });
    if (this.complete) for (const id of this.automaton.eosIds) mask[id] = 1;
    return mask;
  }

  advance(token: number): void {
    const { tokens, next } = this.automaton.transitions(this.state);
    const at = tokens.indexOf(token);
    this.state = at >= 0 ? next[at]! : this.state;
  }
}

/** Regexes longer than this are refused: a JSON schema with many optional properties grows quadratically. */
export const MAX_REGEX_CHARS = 100_000;

/** A spec compiled: its regex source and automaton (as data, so a thread can hand it back), or nothing to constrain. */
export type CompiledSpec = { source: string; automaton: RegexAutomatonData } | undefined;

/** Compiles a structured-output spec on this thread: the spec checked, its regex built and turned into a DFA within `budget`. */
export function compileSpec(spec: StructuredSpec, budget?: CompileBudget): CompiledSpec {
  const given = (['regex', 'choice', 'json', 'grammar'] as const).filter(
    (key) => spec[key] !== undefined && spec[key] !== null,
  );
  if (given.length > 1)
    throw new ValidationError(
      `structured outputs: give one of regex, choice, json or grammar, not ${given.join(' and ')}`,
    );
  // Context-free grammars need a pushdown automaton, not the regex one.
  if (given[0] === 'grammar')
    throw new ValidationError('structured_outputs.grammar is not supported by this server; use json, regex or choice');
  const source =
    given[0] === 'json'
      ? jsonSchemaRegex(spec.json)
      : (spec.regex ?? (spec.choice ? choiceRegex(spec.choice) : undefined));
  if (source === undefined || source === null) return undefined;
  const what =
    given[0] === 'json' ? 'the JSON schema' : given[0] === 'choice' ? 'structured_outputs.choice' : undefined;
  if (source.length > MAX_REGEX_CHARS) {
    throw new ValidationError(
      `${what ?? 'structured_outputs.regex'} is too large: it compiles to a regex of ${source.length} characters (the limit is ${MAX_REGEX_CHARS}); mark optional properties required or use fewer`,
    );
  }
  return { source, automaton: what ? compileRegex(source, what, budget) : compileRegex(source, undefined, budget) };
}

/** Structured-output spec → a fresh constraint per sequence (undefined = unconstrained). */
export type ConstraintMaker = (() => TokenConstraint) | undefined;

/**
 * Structured-output spec → constraint maker, with `compile` run wherever the caller likes (a
 * server compiles on a thread). Automata are cached by spec, least recently used dropped first, so
 * the schema a rollout sends every turn compiles once; so are refusals (a 4xx: the spec itself is
 * wrong or over budget), so a regex refused after seconds of compiling is refused at once after.
 * Token tables are built per automaton state on first use.
 */
export function constraintCompiler(
  tokenizer: ModelTokenizer,
  vocabSize: number,
  compile: (spec: StructuredSpec) => Promise<CompiledSpec>,
  cacheSize = 64,
) {
  let texts: (string | null)[] | undefined;
  // Promises, so that requests arriving together with one new schema compile it once.
  const cache = new Map<string, Promise<TokenAutomaton | undefined>>();
  const build = async (spec: StructuredSpec): Promise<TokenAutomaton | undefined> => {
    const compiled = await compile(spec);
    if (!compiled) return undefined;
    texts ??= Array.from({ length: vocabSize }, (_, id) => tokenText(tokenizer, id));
    return new TokenAutomaton(new RegexAutomaton(compiled.source, compiled.automaton), texts, tokenizer.eosTokenIds);
  };
  return async (spec: StructuredSpec): Promise<ConstraintMaker> => {
    const key = JSON.stringify(spec);
    let pending = cache.get(key);
    if (pending) {
      cache.delete(key); // re-inserted below: the most recently used is last
    } else {
      pending = build(spec);
      // A busy or stopped thread says nothing about the spec: only the spec's own refusals stay cached.
      pending.catch((error: unknown) => {
        if (!isRefusal(error) && cache.get(key) === pending) cache.delete(key);
      });
    }
    cache.set(key, pending);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
    const automaton = await pending;
    return automaton && (() => new RegexConstraint(automaton));
  };
}

function isRefusal(error: unknown): boolean {
  const status = (error as { httpStatus?: unknown }).httpStatus;
  return error instanceof GauntletError && typeof status === 'number' && status >= 400 && status < 500;
}

/** The same, compiling on this thread and synchronously (tests, scripts). */
export function regexConstraintFactory(tokenizer: ModelTokenizer, vocabSize: number) {
  let texts: (string | null)[] | undefined;
  return (spec: StructuredSpec): ConstraintMaker => {
    const compiled = compileSpec(spec);
    if (!compiled) return undefined;
    texts ??= Array.from({ length: vocabSize }, (_, id) => tokenText(tokenizer, id));
    const automaton = new TokenAutomaton(
      new RegexAutomaton(compiled.source, compiled.automaton),
      texts,
      tokenizer.eosTokenIds,
    );
    return () => new RegexConstraint(automaton);
  };
}

function tokenText(tokenizer: ModelTokenizer, id: number): string | null {
  if (tokenizer.idToToken(id) === undefined || tokenizer.isSpecial(id)) return null;
  const text = tokenizer.decode([id]);
  return text === '' || text.includes('\uFFFD') ? null : text;
}
