import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Action } from '../src/wire/action.js';
import {
  BrowserGymObs,
  ChatMessage,
  ElementProperties,
  EncodedScreenshot,
  Observation,
  ObservationMetadata,
  ObservationOptions,
  StepResult,
} from '../src/wire/observation.js';
import { RecordedStep, RecordReply, RecordRequest } from '../src/wire/record.js';
import { BrowserOptions, ResetRequest, StepRequest } from '../src/wire/requests.js';
import { State } from '../src/wire/state.js';
import { messageDescriptor, protoKind, zodNode } from './zod-vs-proto.js';

/**
 * The JSON wire (zod) and env.proto are one contract: every zod field has its proto field of a
 * matching kind and vice versa. Where the proto deliberately differs, the reason is written here.
 */
const DELIBERATE: Record<string, string> = {
  'Observation.screenshot': 'RgbImage (raw bytes) instead of int[H][W][3]',
  'EncodedScreenshot.base64': 'sent as bytes `data`, not base64 text',
  'EncodedScreenshot.data': 'the bytes behind JSON base64',
  'ElementProperties.bbox': 'repeated double; empty = null',
  'ResetRequest.session_id': 'zod has it for HTTP bodies; proto uses it for unary Reset',
};

/** Objects whose zod schema accepts extra keys carry them in a Struct named `extra`. */
const PAIRS: [string, z.ZodType][] = [
  ['Action', Action],
  ['ResetRequest', ResetRequest],
  ['StepRequest', StepRequest],
  ['StepResult', StepResult],
  ['Observation', Observation],
  ['ObservationMetadata', ObservationMetadata],
  ['BrowserGymObs', BrowserGymObs],
  ['ElementProperties', ElementProperties],
  ['ChatMessage', ChatMessage],
  ['EncodedScreenshot', EncodedScreenshot],
  ['ObservationOptions', ObservationOptions],
  ['State', State],
  ['GoalPart', BrowserGymObs.shape.goal_object.element],
  ['ActionSet', zodNode(ResetRequest.shape.action_set).schema],
  ['BrowserOptions', BrowserOptions],
  ['RecordRequest', RecordRequest],
  ['RecordedStep', RecordedStep],
  ['RecordReply', RecordReply],
];

function disagreements(messageName: string, schema: z.ZodType): string[] {
  const problems: string[] = [];
  const message = messageDescriptor(messageName);
  const { shape, catchall } = (
    schema as unknown as { def: { shape: Record<string, z.ZodType>; catchall?: { def: { type: string } } } }
  ).def;
  const fields = new Map(message.field.map((f) => [f.name, f]));
  for (const [key, value] of Object.entries(shape)) {
    const where = `${messageName}.${key}`;
    const field = fields.get(key);
    if (DELIBERATE[where]) continue;
    if (!field) {
      problems.push(`${where}: in zod, missing from env.proto`);
      continue;
    }
    const want = zodNode(value).kind;
    const have = protoKind(message, field).kind;
    const compatible = want === have || (want === 'tuple' && have === 'array');
    if (!compatible) problems.push(`${where}: zod ${want}, proto ${have}`);
  }
  const acceptsExtras = catchall !== undefined && catchall.def.type !== 'never';
  for (const name of fields.keys()) {
    const where = `${messageName}.${name}`;
    if (name in shape || DELIBERATE[where]) continue;
    if (name === 'extra' && acceptsExtras) continue;
    if (name === 'session_id' && 'session_id' in shape) continue;
    // Unary calls address sessions by id; zod's request bodies get theirs from the transport.
    if (name === 'session_id' && ['ResetRequest', 'StepRequest', 'RecordRequest'].includes(messageName)) continue;
    problems.push(`${where}: in env.proto, missing from zod`);
  }
  if (acceptsExtras && !fields.has('extra'))
    problems.push(`${messageName}: zod accepts extra keys, proto has no \`extra\` Struct`);
  return problems;
}

describe('env.proto mirrors the JSON wire', () => {
  it.each(PAIRS)('%s has the same fields as its zod schema', (name, schema) => {
    expect(disagreements(name, schema)).toEqual([]);
  });

  it('the typed error carries name, message, code and details', () => {
    expect(messageDescriptor('Error').field.map((f) => f.name)).toEqual(['name', 'message', 'code', 'details']);
  });

  it('a field added to zod alone is caught', () => {
    const drifted = Action.extend({ priority: Action.shape.action_str });
    expect(disagreements('Action', drifted)).toEqual(['Action.priority: in zod, missing from env.proto']);
  });
});

describe('generated TypeScript types', () => {
  const protoRoot = fileURLToPath(new URL('..', import.meta.url));
  const fresh = mkdtempSync(join(tmpdir(), 'gauntlet-gen-'));
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('are what scripts/gen-grpc-types.mjs makes from env.proto today (run `npm run -w @gauntlet/proto gen`)', () => {
    execFileSync(process.execPath, [join(protoRoot, 'scripts/gen-grpc-types.mjs'), fresh], { stdio: 'ignore' });
    const checkedIn = join(protoRoot, 'src/grpc/generated');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) =>
        statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)],
      );
    const read = (dir: string) =>
      Object.fromEntries(files(dir).map((f) => [relative(dir, f), readFileSync(f, 'utf8')]));
    expect(read(checkedIn)).toEqual(read(fresh));
  });
});
