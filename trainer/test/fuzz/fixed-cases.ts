import { send, sendChunked, type Reply } from './send.js';
import type { Findings } from './findings.js';
import type { FuzzRequest } from './requests.js';

/** A known-bad input (the ones issue 16 reported, and their neighbours) with the status it must get. */
export interface FixedCase {
  name: string;
  request: FuzzRequest;
  status: number;
  /** Something the reply must say (or, with `not`, must not contain). */
  says?: RegExp;
  not?: RegExp;
}

const post = (path: string, body: unknown, authorized = true): FuzzRequest => ({
  method: 'POST',
  path,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  authorized,
});

/** A $ref chain `depth` definitions long: shallow JSON, deep expansion. */
function refChain(depth: number): object {
  const defs: Record<string, object> = {};
  for (let i = 0; i < depth; i++)
    defs[`d${i}`] = i === depth - 1 ? { type: 'string', maxLength: 2 } : { $ref: `#/$defs/d${i + 1}` };
  return { $defs: defs, $ref: '#/$defs/d0' };
}

/** The cases, given the adapter folders the test laid out inside (and outside) the server's --adapter-root. */
export function fixedCases(adapters: {
  good: string;
  linkedConfig: string;
  outside: string;
  traversal: string;
  nonFinite: string;
  fifo: string;
}): FixedCase[] {
  const huge = 'x'.repeat(8 * 1024 * 1024 - 100);
  return [
    // Item 11: adapters only from the roots, never a file's contents in a reply; a key on every route but /health.
    {
      name: 'load an adapter inside the root',
      request: post('/v1/load_lora_adapter', { lora_name: 'good', lora_path: adapters.good }),
      status: 200,
    },
    {
      name: 'load /etc',
      request: post('/v1/load_lora_adapter', { lora_name: 'x', lora_path: '/etc' }),
      status: 400,
      says: /outside the folders/,
    },
    {
      name: 'load a folder outside the root',
      request: post('/v1/load_lora_adapter', { lora_name: 'x', lora_path: adapters.outside }),
      status: 400,
      says: /outside the folders/,
    },
    {
      name: 'load through ../',
      request: post('/v1/load_lora_adapter', { lora_name: 'x', lora_path: adapters.traversal }),
      status: 400,
      not: /SECRET/,
    },
    {
      name: 'config linked to a file outside',
      request: post('/v1/load_lora_adapter', { lora_name: 'x', lora_path: adapters.linkedConfig }),
      status: 400,
      not: /SECRET/,
    },
    // Issue 28 item 11: factors the replies cannot use, and a file that would block the load forever.
    {
      name: 'an adapter full of NaN',
      request: post('/v1/load_lora_adapter', { lora_name: 'nan', lora_path: adapters.nonFinite }),
      status: 400,
      says: /tensor base_model\.model\.model\.layers\.0\.\w+\.\w+\.lora_B\.weight: it holds NaN at index 0/,
    },
    {
      name: 'a FIFO as adapter_model.safetensors',
      request: post('/v1/load_lora_adapter', { lora_name: 'fifo', lora_path: adapters.fifo }),
      status: 400,
      says: /adapter_model\.safetensors is not a regular file/,
    },
    { name: 'no key', request: post('/v1/completions', { prompt: 'x', max_tokens: 1 }, false), status: 401 },
    { name: 'no key on /tokenize', request: post('/tokenize', { prompt: 'x' }, false), status: 401 },
    { name: '/health needs no key', request: { method: 'GET', path: '/health', authorized: false }, status: 200 },
    // Item 12: bodies and prompts that once stalled or reset the server.
    {
      name: 'a prompt of almost 8 MB',
      request: post('/v1/completions', { prompt: huge, max_tokens: 1 }),
      status: 400,
      says: /cannot fit this model's context/,
    },
    {
      name: 'JSON nested 5,000 deep',
      request: post('/v1/completions', `{"prompt":"x","seed":${'['.repeat(5000)}${']'.repeat(5000)}}`),
      status: 400,
      says: /more than 64 levels deep/,
    },
    // Item 13: 400s that say why.
    {
      name: '/generate/ seed 1.5',
      request: post('/generate/', { prompts: ['ab'], max_tokens: 2, generation_kwargs: { seed: 1.5 } }),
      status: 400,
      says: /generation_kwargs\.seed/,
    },
    {
      name: '/generate/ seed -1',
      request: post('/generate/', { prompts: ['ab'], max_tokens: 2, generation_kwargs: { seed: -1 } }),
      status: 400,
      says: /generation_kwargs\.seed/,
    },
    {
      name: 'a $ref chain 5,000 deep',
      request: post('/v1/completions', { prompt: 'x', max_tokens: 2, structured_outputs: { json: refChain(5000) } }),
      status: 400,
      says: /nests more than 64 levels/,
    },
    {
      name: 'streamed structured output longer than max_tokens',
      request: post('/v1/completions', {
        prompt: 'x',
        max_tokens: 3,
        stream: true,
        structured_outputs: { choice: ['a long answer'] },
      }),
      status: 400,
      says: /needs at least 13 tokens/,
    },
    {
      name: 'max_tokens 0',
      request: post('/v1/completions', { prompt: 'x', max_tokens: 0 }),
      status: 400,
      says: /max_tokens must be at least 1, got 0/,
    },
    {
      name: 'echo without generation',
      request: post('/v1/completions', { prompt: 'x', max_tokens: 0, echo: true, logprobs: 1 }),
      status: 200,
    },
    {
      name: 'more sequences than the queue holds',
      request: post('/v1/completions', { prompt: ['a', 'b', 'c', 'd', 'e'], n: 5, max_tokens: 1 }),
      status: 400,
      says: /sequences at once/,
    },
    {
      name: 'a schema too large to compile',
      request: post('/v1/completions', {
        prompt: 'x',
        max_tokens: 2,
        structured_outputs: {
          json: {
            type: 'object',
            properties: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { type: 'integer' }])),
          },
        },
      }),
      status: 400,
      says: /too large/,
    },
    {
      name: 'an exploding regex',
      request: post('/v1/completions', {
        prompt: 'x',
        max_tokens: 4,
        structured_outputs: { regex: '(a|b)*a(a|b){20}' },
      }),
      status: 400,
      says: /needs more than 10000 DFA states/,
    },
    // Issue 28 item 3: a regex that held the preparation thread for 75 s, twice (the second refusal is cached).
    ...[1, 2].map((n) => ({
      name: `issue 28's nested-repeat regex (${n})`,
      request: post('/v1/completions', {
        prompt: 'x',
        max_tokens: 4,
        structured_outputs: { regex: '(((a|b){0,20}){0,20}){0,20}c' },
      }),
      status: 400,
      says: /takes longer than 3000 ms to compile|needs more than 10000 (NFA|DFA) states/,
    })),
    {
      name: '/tokenize over the length cap',
      request: post('/tokenize', { prompt: 'x'.repeat(300_000) }),
      status: 400,
      says: /over this server's \/tokenize limit/,
    },
    {
      name: '/tokenize of a conversation over the length cap',
      request: post('/tokenize', { messages: [{ role: 'user', content: 'x'.repeat(300_000) }] }),
      status: 400,
      says: /over this server's \/tokenize limit/,
    },
    // Item 15: byte tokens that decode alike stay apart.
    {
      name: 'return_tokens_as_token_ids',
      request: post('/v1/completions', {
        prompt: 'x',
        max_tokens: 2,
        temperature: 0,
        logprobs: 20,
        return_tokens_as_token_ids: true,
      }),
      status: 200,
      says: /"token_id:\d+"/,
    },
  ];
}

/** Runs the cases one by one; each reply is held to the general rules and to its own status. */
export async function runFixedCases(url: string, cases: readonly FixedCase[], findings: Findings): Promise<void> {
  for (const fixed of cases) {
    const reply = await send(url, fixed.request);
    const label = `${fixed.name}: ${fixed.request.method} ${fixed.request.path} ${fixed.request.body ?? ''}`;
    findings.check(label, reply.status, reply.text);
    if (reply.status !== fixed.status)
      findings.add(label, `expected ${fixed.status}, got ${reply.status}: ${reply.text}`);
    if (fixed.says && !fixed.says.test(reply.text))
      findings.add(label, `reply should match ${fixed.says}: ${reply.text}`);
    if (fixed.not?.test(reply.text)) findings.add(label, `reply must not match ${fixed.not}: ${reply.text}`);
  }
}

/**
 * Item 12's load: four prompts of 7 MB and four texts of 1 MB to tokenize, all at once, with a
 * 5-token completion among them that must not wait for them (it took 6.6 s).
 */
export async function runFloodCase(url: string, findings: Findings): Promise<{ smallMs: number }> {
  const seven = JSON.stringify({ prompt: 'y'.repeat(7 * 1024 * 1024), max_tokens: 5 });
  const one = JSON.stringify({ prompt: 'ab'.repeat(512 * 1024) });
  const flood: Promise<Reply>[] = [
    ...Array.from({ length: 4 }, () =>
      send(url, { method: 'POST', path: '/v1/completions', body: seven, authorized: true }),
    ),
    ...Array.from({ length: 4 }, () => send(url, { method: 'POST', path: '/tokenize', body: one, authorized: true })),
  ];
  const started = performance.now();
  const small = await send(url, {
    method: 'POST',
    path: '/v1/completions',
    body: JSON.stringify({ prompt: 'hi', max_tokens: 5, ignore_eos: true }),
    authorized: true,
  });
  const smallMs = performance.now() - started;
  findings.check('flood: the 5-token completion', small.status, small.text);
  if (small.status !== 200) findings.add('flood: the 5-token completion', `expected 200, got ${small.status}`);
  for (const reply of await Promise.all(flood)) {
    findings.check('flood: 7 MB prompts and 1 MB texts', reply.status, reply.text.slice(0, 2000));
    if (reply.status !== 400 && reply.status !== 200) findings.add('flood', `unexpected ${reply.status}`);
  }
  // A 9 MB chunked body: a 413 the client gets to read, not a reset.
  const chunked = await sendChunked(url, '/v1/completions', 9 * 1024 * 1024).catch((error: Error) => ({
    status: 0,
    text: `socket error ${error.message}`,
  }));
  if (chunked.status !== 413)
    findings.add('a 9 MB chunked body', `expected 413, got ${chunked.status}: ${chunked.text}`);
  return { smallMs };
}
