import { ValidationError } from '@gauntlet/proto';
import type { ModelTokenizer } from '../model/tokenizer.js';
import type { TokenConstraint } from './constraint.js';
import { jsonSchemaRegex } from './json-schema-regex.js';
import { choiceRegex, RegexAutomaton } from './regex-automaton.js';

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

/** Structured-output spec → constraint maker; compiled automata are cached by regex (the same schema recurs across a run). */
export function regexConstraintFactory(tokenizer: ModelTokenizer, vocabSize: number, cacheSize = 64) {
  let texts: (string | null)[] | undefined;
  const cache = new Map<string, TokenAutomaton>();
  return (spec: StructuredSpec): (() => TokenConstraint) | undefined => {
    const given = (['regex', 'choice', 'json', 'grammar'] as const).filter((key) => spec[key] !== undefined && spec[key] !== null);
    if (given.length > 1) throw new ValidationError(`structured outputs: give one of regex, choice, json or grammar, not ${given.join(' and ')}`);
    // Context-free grammars need a pushdown automaton, not the regex one.
    if (given[0] === 'grammar') throw new ValidationError('structured_outputs.grammar is not supported by this server; use json, regex or choice');
    const source = given[0] === 'json' ? jsonSchemaRegex(spec.json) : (spec.regex ?? (spec.choice ? choiceRegex(spec.choice) : undefined));
    if (source === undefined || source === null) return undefined;
    texts ??= Array.from({ length: vocabSize }, (_, id) => tokenText(tokenizer, id));
    let automaton = cache.get(source);
    if (!automaton) {
      automaton = new TokenAutomaton(new RegexAutomaton(source), texts, tokenizer.eosTokenIds);
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      cache.set(source, automaton);
    }
    const found = automaton;
    return () => new RegexConstraint(found);
  };
}

function tokenText(tokenizer: ModelTokenizer, id: number): string | null {
  if (tokenizer.idToToken(id) === undefined || tokenizer.isSpecial(id)) return null;
  const text = tokenizer.decode([id]);
  return text === '' || text.includes('\uFFFD') ? null : text;
}
