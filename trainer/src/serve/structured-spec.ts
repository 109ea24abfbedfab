import type { WireStructured } from '@gauntlet/proto/policy-server';
import type { StructuredSpec } from '../generate/structured.js';
import { BadRequestError } from './http-errors.js';

/**
 * The one structured-output spec of a request, from whichever field the client speaks:
 * vLLM's `structured_outputs`, OpenAI's `response_format` (json_schema, json_object, text) or
 * vLLM's older `guided_regex` / `guided_choice` / `guided_json` / `guided_grammar`.
 */
export function structuredSpecOf(body: WireStructured): StructuredSpec {
  const specs: [string, StructuredSpec][] = [];
  if (body.structured_outputs) specs.push(['structured_outputs', body.structured_outputs]);
  const format = body.response_format;
  if (format && format.type === 'json_schema')
    specs.push(['response_format', { json: format.json_schema?.schema ?? true }]);
  // Any JSON object: the schema-less object, nested as deep as the regex allows.
  if (format && format.type === 'json_object') specs.push(['response_format', { json: { type: 'object' } }]);
  const guided: StructuredSpec = {
    regex: body.guided_regex,
    choice: body.guided_choice,
    json: body.guided_json ?? undefined,
    grammar: body.guided_grammar,
  };
  if (Object.values(guided).some((v) => v !== undefined && v !== null)) specs.push(['guided_*', guided]);
  if (specs.length > 1)
    throw new BadRequestError(
      `give structured outputs in one field, not in ${specs.map(([field]) => field).join(' and ')}`,
      specs[1]![0],
    );
  return specs[0]?.[1] ?? {};
}
