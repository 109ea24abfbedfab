import { internalText } from './internal-text.js';

/** One reply that broke a rule, with the request that caused it, clipped for the report. */
export interface Finding {
  request: string;
  problem: string;
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** The rules every reply is held to: no 5xx, no internal text, and a refused stream refused before its 200. */
export class Findings {
  readonly list: Finding[] = [];

  add(request: string, problem: string): void {
    this.list.push({ request: clip(request), problem: clip(problem) });
  }

  check(request: string, status: number, reply: string): void {
    if (status >= 500) this.add(request, `HTTP ${status}: ${reply}`);
    const leaked = internalText(reply, request);
    if (leaked) this.add(request, `reply leaks ${JSON.stringify(leaked)}: ${reply}`);
    if (status === 200 && reply.startsWith('data: ') && /^data: \{"error"/m.test(reply))
      this.add(request, `a streamed 200 carried an error event: ${reply}`);
  }
}
