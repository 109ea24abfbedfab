import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonSchemaRegex } from '../../src/generate/json-schema-regex.js';
import { samplingParams } from '../../src/generate/sampling-params.js';
import { regexConstraintFactory } from '../../src/generate/structured.js';
import { tinyEngine } from './engine-support.js';

const setup = tinyEngine({ seed: 12 });
afterAll(async () => (await setup).model.release());

/** Schemas of the kinds tools and pydantic send, each exercising one feature. */
const SCHEMAS: Record<string, unknown> = {
  'required and optional properties': {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 6 },
      age: { type: 'integer', minimum: 0 },
      ok: { type: 'boolean' },
    },
    required: ['name'],
  },
  'all properties optional': {
    type: 'object',
    properties: { a: { type: 'null' }, b: { type: 'number' } },
    additionalProperties: false,
  },
  'enum, const and a nullable type': {
    type: 'object',
    properties: {
      action: { enum: ['click', 'fill', 'scroll'] },
      v: { const: 2 },
      note: { type: ['string', 'null'], maxLength: 3 },
    },
    required: ['action', 'v', 'note'],
  },
  'bounded array of refs': {
    $defs: {
      Step: { type: 'object', properties: { bid: { type: 'string', minLength: 1, maxLength: 3 } }, required: ['bid'] },
    },
    type: 'array',
    items: { $ref: '#/$defs/Step' },
    minItems: 1,
    maxItems: 2,
  },
  'anyOf of scalars': { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 4 }, { type: 'boolean' }] },
  formats: {
    type: 'object',
    properties: { d: { type: 'string', format: 'date' }, id: { type: 'string', format: 'uuid' } },
    required: ['d', 'id'],
  },
  'schema-less object': { type: 'object' },
  'any value': {},
  'pydantic-style title and descriptions': {
    title: 'Answer',
    description: 'An answer',
    type: 'object',
    properties: { answer: { title: 'Answer', description: 'the text', type: 'string', maxLength: 5 } },
    required: ['answer'],
  },
};

describe('JSON Schema structured outputs', () => {
  it.each(Object.entries(SCHEMAS))(
    '%s: every sampled output is JSON valid against the schema',
    async (_name, schema) => {
      const { engine, base, tokenizer, config } = await setup;
      const factory = regexConstraintFactory(tokenizer, config.vocabSize);
      const constraint = factory({ json: schema })!;
      const validate = new Ajv({ strict: false }).compile(schema as object);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, seed) =>
          engine.generate({
            prompt: [123, 34],
            params: samplingParams({ temperature: 1.3, seed, maxTokens: 120 }),
            adapterFeeds: base,
            constraint: constraint(),
          }),
        ),
      );
      for (const r of results) {
        const value: unknown = JSON.parse(r.text);
        expect(validate(value), `${r.text}: ${JSON.stringify(validate.errors)}`).toBe(true);
        // Unbounded numbers may run to max_tokens; the constraint still closes the JSON in time.
        expect(r.tokenIds.length).toBeLessThanOrEqual(120);
      }
    },
  );

  it.each([
    [{ type: 'string', pattern: '^a+$' }, /at #: the keyword "pattern" is not supported/],
    [{ type: 'integer', maximum: 3 }, /the keyword "maximum" is not supported/],
    [{ type: 'number', minimum: 1 }, /"minimum": 1 is not supported/],
    [
      { type: 'object', properties: { a: { type: 'date' } } },
      /at #\/properties\/a: "type": "date" is not a JSON Schema type/,
    ],
    [
      { $defs: { N: { type: 'array', items: { $ref: '#/$defs/N' } } }, $ref: '#/$defs/N' },
      /"\$ref": "#\/\$defs\/N" is recursive/,
    ],
    [{ $ref: '#/$defs/Missing' }, /points at nothing/],
    [
      { type: 'string', format: 'email' },
      /"format": "email" is not supported \(supported: date, time, date-time, uuid\)/,
    ],
    [{ type: 'object', required: ['x'] }, /"x" is required but has no schema/],
    [false, /allows no value/],
    [{ type: 'object', properties: {}, required: ['toString'] }, /"toString" is required but has no schema/],
    [{ type: 'string', format: 'constructor' }, /"format": "constructor" is not supported/],
    [{ $ref: '#/$defs/constructor', $defs: {} }, /points at nothing/],
  ])('refuses %j with a message naming the place', (schema, message) => {
    expect(() => jsonSchemaRegex(schema)).toThrow(message);
  });

  it('refuses two specs at once and grammars, by name', async () => {
    const { tokenizer, config } = await setup;
    const factory = regexConstraintFactory(tokenizer, config.vocabSize);
    expect(() => factory({ regex: 'a', json: {} })).toThrow(/not regex and json/);
    expect(() => factory({ grammar: 'root ::= "a"' })).toThrow(/grammar is not supported/);
  });
});

describe('structured outputs and max_tokens', () => {
  it('a max_tokens too small for any complete output is refused up front, saying how many are needed', async () => {
    const { engine, base, tokenizer, config } = await setup;
    const constraint = regexConstraintFactory(
      tokenizer,
      config.vocabSize,
    )({ json: { type: 'object', properties: { answer: { const: 'forty-two' } }, required: ['answer'] } })!;
    const request = (maxTokens: number) =>
      engine.generate({
        prompt: [1],
        params: samplingParams({ temperature: 1, seed: 1, maxTokens }),
        adapterFeeds: base,
        constraint: constraint(),
      });
    await expect(request(10)).rejects.toThrow('the structured output needs at least 22 tokens but max_tokens is 10');
    expect((await request(22)).text).toBe('{"answer":"forty-two"}');
  });
});
