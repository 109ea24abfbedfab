import { internalText } from './leaks.js';

/** One reply that broke a rule, with the input that caused it (truncated for the report). */
export interface Finding {
  boundary: string;
  input: string;
  problem: string;
}

export class Findings {
  readonly list: Finding[] = [];

  constructor(private readonly boundary: string) {}

  add(input: unknown, problem: string): void {
    const text = typeof input === 'string' ? input : safeStringify(input);
    this.list.push({ boundary: this.boundary, input: text.length > 300 ? `${text.slice(0, 300)}…` : text, problem });
  }

  /** Records the reply if it carries internal text. */
  checkText(input: unknown, reply: string): void {
    const leaked = internalText(reply);
    if (leaked) this.add(input, `reply leaks internal text ${JSON.stringify(leaked)}: ${reply.slice(0, 300)}`);
  }
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
