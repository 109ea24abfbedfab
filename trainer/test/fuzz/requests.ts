import { FIELD_NAMES, HOSTILE_NUMBERS, deeplyNested, hostileString, jsonValue } from './values.js';
import type { Rng } from './rng.js';

/** One HTTP request of the fuzz run: method, path and, for POSTs, the body text. */
export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string;
  /** Send the bearer key (most requests do, so the routes behind it get fuzzed). */
  authorized: boolean;
}

/** Mostly valid, sometimes hostile: the value a field gets. */
function maybe<T>(rng: Rng, valid: () => T, hostile = () => jsonValue(rng, 2) as unknown): T | unknown {
  return rng.chance(0.8) ? valid() : hostile();
}

function prompt(rng: Rng): unknown {
  switch (rng.int(6)) {
    case 0:
      return Array.from({ length: 1 + rng.int(8) }, () => rng.int(259));
    case 1:
      return [Array.from({ length: 1 + rng.int(4) }, () => rng.int(259)), [rng.pick([0, 258, 259, 1e6, -1])]];
    case 2:
      return [hostileString(rng), 'ok'];
    case 3:
      return jsonValue(rng, 2);
    default:
      return hostileString(rng).slice(0, 300) || 'x';
  }
}

function structured(rng: Rng): object {
  switch (rng.int(8)) {
    case 0:
      return {
        structured_outputs: {
          regex: rng.pick([
            '[0-9]{2,4}',
            'ab?c',
            '(',
            '[',
            'a{3,1}',
            '(?=a)b',
            '\\d+\\.\\d+',
            // Over the compile budget (issue 28): refused in seconds on one thread, then from the cache.
            '(((a|b){0,19}){0,19}){0,19}d',
            hostileString(rng).slice(0, 80),
          ]),
        },
      };
    case 1:
      return { structured_outputs: { choice: maybe(rng, () => ['yes', 'no', hostileString(rng).slice(0, 20)]) } };
    case 2:
      return { structured_outputs: { json: jsonValue(rng, 3) } };
    case 3:
      return {
        response_format: {
          type: rng.pick(['json_object', 'json_schema', 'text', 'xml']),
          json_schema: { schema: jsonValue(rng, 3) },
        },
      };
    case 4:
      return {
        guided_json: rng.pick([
          '{not json',
          '{"type":"integer"}',
          JSON.stringify({ type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, required: ['a'] }),
        ]),
      };
    case 5:
      return { guided_grammar: 'root ::= "a"' };
    case 6:
      return { structured_outputs: { json: { $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' } } };
    default:
      return {};
  }
}

function sampling(rng: Rng): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    max_tokens: maybe(
      rng,
      () => 1 + rng.int(8),
      () => rng.pick([0, -1, 1.5, 1e9, '8', null]),
    ),
    temperature: maybe(rng, () => rng.pick([0, 0.5, 1, 1.7])),
    seed: maybe(
      rng,
      () => rng.int(1000),
      () => rng.pick([-1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, 'seven']),
    ),
  };
  if (rng.chance(0.3))
    fields['n'] = maybe(
      rng,
      () => 1 + rng.int(3),
      () => rng.pick(HOSTILE_NUMBERS),
    );
  for (const name of [
    'top_p',
    'top_k',
    'min_p',
    'repetition_penalty',
    'min_tokens',
    'stop',
    'stop_token_ids',
    'ignore_eos',
    'logprobs_mode',
  ]) {
    if (rng.chance(0.15))
      fields[name] =
        name === 'stop'
          ? maybe(rng, () => [hostileString(rng).slice(0, 10)])
          : rng.chance(0.5)
            ? rng.pick(HOSTILE_NUMBERS)
            : jsonValue(rng, 1);
  }
  if (rng.chance(0.25)) Object.assign(fields, structured(rng));
  if (rng.chance(0.2)) fields['stream'] = true;
  if (rng.chance(0.15)) fields['stream_options'] = { include_usage: true };
  if (rng.chance(0.2)) fields['return_tokens_as_token_ids'] = rng.chance(0.8) ? true : jsonValue(rng, 1);
  if (rng.chance(0.2)) fields['model'] = rng.pick(['tiny', 'missing', hostileString(rng).slice(0, 40)]);
  return fields;
}

function messages(rng: Rng): unknown {
  if (rng.chance(0.15)) return jsonValue(rng, 3);
  return Array.from({ length: 1 + rng.int(3) }, () => ({
    role: maybe(rng, () => rng.pick(['system', 'user', 'assistant', 'tool'])),
    content: maybe(
      rng,
      () => hostileString(rng).slice(0, 400) || 'hi',
      () => rng.pick([null, [{ type: 'text', text: 'a' }], [{ type: 'image_url' }], 42]),
    ),
  }));
}

/** A body for `path`: near-valid shapes with hostile values, or junk. */
function body(rng: Rng, path: string): string {
  if (rng.chance(0.07))
    return rng.pick([
      '{',
      '',
      'null',
      '[]',
      '"x"',
      '{"prompt":',
      '\u0000',
      '{"a":1}{"b":2}',
      `{"prompt":"x","seed":${deeplyNested(rng.pick([10, 70, 5000]))}}`,
    ]);
  switch (path) {
    case '/v1/completions':
      return JSON.stringify({
        prompt: prompt(rng),
        ...sampling(rng),
        ...(rng.chance(0.3)
          ? {
              logprobs: maybe(
                rng,
                () => rng.int(21),
                () => rng.pick([21, -1, 1.5]),
              ),
            }
          : {}),
        ...(rng.chance(0.2) ? { echo: true } : {}),
        ...(rng.chance(0.2) ? { prompt_logprobs: maybe(rng, () => rng.int(5)) } : {}),
        ...(rng.chance(0.3) ? { return_token_ids: true } : {}),
      });
    case '/v1/chat/completions':
      return JSON.stringify({
        messages: messages(rng),
        ...sampling(rng),
        ...(rng.chance(0.3) ? { logprobs: true, top_logprobs: maybe(rng, () => rng.int(21)) } : {}),
        ...(rng.chance(0.15) ? { chat_template_kwargs: jsonValue(rng, 2) } : {}),
        ...(rng.chance(0.1) ? { max_completion_tokens: rng.pick([0, 1, 4, -3]) } : {}),
      });
    case '/tokenize':
      return JSON.stringify(
        rng.chance(0.5)
          ? {
              prompt: maybe(rng, () => hostileString(rng)),
              add_special_tokens: maybe(rng, () => rng.chance(0.5)),
              return_token_strs: rng.chance(0.3),
            }
          : {
              messages: messages(rng),
              add_generation_prompt: rng.chance(0.5),
              continue_final_message: rng.chance(0.1),
            },
      );
    case '/detokenize':
      return JSON.stringify({
        tokens: maybe(
          rng,
          () => Array.from({ length: rng.int(50) }, () => rng.int(259)),
          () => [rng.pick([259, -1, 1.5, 1e12])],
        ),
      });
    case '/generate/':
      return JSON.stringify({
        prompts: maybe(rng, () => (rng.chance(0.5) ? ['ab', hostileString(rng).slice(0, 100) || 'x'] : [[65, 66]])),
        n: maybe(rng, () => 1 + rng.int(2)),
        max_tokens: maybe(
          rng,
          () => 1 + rng.int(6),
          () => rng.pick([0, -1, 1e9]),
        ),
        ...(rng.chance(0.4) ? { logprobs: maybe(rng, () => rng.int(3)) } : {}),
        ...(rng.chance(0.6)
          ? {
              generation_kwargs: rng.chance(0.5)
                ? { seed: rng.int(100), ignore_eos: true }
                : Object.fromEntries([
                    [
                      rng.pick(['seed', 'seed', 'temperature', 'max_tokens', 'stop', 'min_tokens', 'logprobs']),
                      rng.pick([...HOSTILE_NUMBERS, 'x', null, [1]]),
                    ],
                  ]),
            }
          : {}),
        ...(rng.chance(0.15)
          ? { structured_outputs_regex: rng.pick(['[0-9]{2}', '(', 'a|b', hostileString(rng).slice(0, 40)]) }
          : {}),
      });
    case '/v1/load_lora_adapter':
      return JSON.stringify({
        lora_name: maybe(rng, () => rng.pick(['a', 'tiny', 'x'])),
        lora_path: maybe(rng, () => hostileString(rng)),
        load_inplace: maybe(rng, () => rng.chance(0.5)),
      });
    case '/v1/unload_lora_adapter':
      return JSON.stringify({ lora_name: maybe(rng, () => rng.pick(['a', 'missing', 'tiny'])) });
    default:
      return JSON.stringify(
        Object.fromEntries(Array.from({ length: rng.int(4) }, () => [rng.pick(FIELD_NAMES), jsonValue(rng, 3)])),
      );
  }
}

const POSTS = [
  '/v1/completions',
  '/v1/completions',
  '/v1/completions',
  '/v1/chat/completions',
  '/v1/chat/completions',
  '/tokenize',
  '/tokenize',
  '/detokenize',
  '/generate/',
  '/generate/',
  '/v1/load_lora_adapter',
  '/v1/unload_lora_adapter',
  '/reset_prefix_cache/',
];
const GETS = [
  '/v1/models',
  '/metrics',
  '/health/',
  '/get_world_size/',
  '/nope',
  '/v1/completions',
  '/health?x=1',
  '/%2e%2e/etc/passwd',
];

/** One request of the run: mostly POSTs to the generating and tokenizing routes. */
export function fuzzRequest(rng: Rng): FuzzRequest {
  const authorized = rng.chance(0.93);
  if (rng.chance(0.12))
    return { method: rng.pick(['GET', 'GET', 'DELETE', 'PUT'] as const), path: rng.pick(GETS), authorized };
  const path = rng.pick(POSTS);
  return { method: 'POST', path, body: body(rng, path), authorized };
}
