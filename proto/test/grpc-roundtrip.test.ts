import { describe, expect, it } from 'vitest';
import { envMessageCodec } from '../src/grpc/definition.js';
import {
  stateFromMessage,
  stateToMessage,
  stepResultFromMessage,
  stepResultToMessage,
} from '../src/grpc/convert-result.js';
import {
  errorFromMessage,
  errorToMessage,
  resetBodyFromMessage,
  resetRequestToMessage,
  stepBodyFromMessage,
  stepRequestToMessage,
} from '../src/grpc/convert-requests.js';
import { CapacityError, ValidationError } from '../src/errors.js';
import { ResetRequest, StepRequest } from '../src/wire/requests.js';
import { State } from '../src/wire/state.js';
import { StepResult } from '../src/wire/observation.js';
import { sampleStepResult } from './samples.js';

/** Through real protobuf bytes, with the codec the EnvService methods use on the wire. */
function viaBytes<T>(messageName: string, message: unknown): T {
  const codec = envMessageCodec<T>(`gauntlet.env.v1.${messageName}`);
  return codec.deserialize(codec.serialize(message as T));
}

describe('JSON wire → protobuf bytes → JSON wire is lossless', () => {
  it('a full step result (RGB and encoded screenshots, element properties, nulls, extras)', () => {
    const result = sampleStepResult();
    const back = stepResultFromMessage(viaBytes('StepResult', stepResultToMessage(result)));
    expect(back).toEqual(result);
    expect(StepResult.parse(back)).toEqual(result);
    // The observation's metadata is the shared object again, as the server built it.
    expect(back.observation.metadata).toBe(back.metadata);
  });

  it('an observation whose metadata differs from the top-level one keeps both', () => {
    const result = sampleStepResult();
    result.observation.metadata = { ...result.metadata, note: 'different' };
    expect(stepResultFromMessage(viaBytes('StepResult', stepResultToMessage(result)))).toEqual(result);
  });

  it('a null reward and no screenshot', () => {
    const result = sampleStepResult();
    Object.assign(result, { reward: null });
    Object.assign(result.observation, { reward: null, screenshot: null });
    expect(stepResultFromMessage(viaBytes('StepResult', stepResultToMessage(result)))).toEqual(result);
  });

  it('state with nulls and extra keys', () => {
    const state = State.parse({
      episode_id: null,
      step_count: 3,
      benchmark: 'miniwob',
      task_name: 'miniwob.click-test',
      task_id: 'x:1',
      goal: 'g',
      current_url: 'http://t/',
      max_steps: null,
      cum_reward: 0.5,
      session_id: 's1',
      seed: 7,
      done: false,
    });
    expect(stateFromMessage(viaBytes('State', stateToMessage(state)))).toEqual(state);
  });

  it('reset and step requests arrive as the JSON bodies HTTP would send', () => {
    const reset = ResetRequest.parse({
      seed: 4,
      task_name: 'click-test',
      episode_id: 'e',
      observation: { screenshot: 'png' },
      options: { start_step: 2, nested: { a: [1, 'b', null] } },
      action_set: { subsets: ['bid'], strict: true },
    });
    expect(ResetRequest.parse(resetBodyFromMessage(viaBytes('ResetRequest', resetRequestToMessage(reset))))).toEqual(
      reset,
    );
    expect(resetBodyFromMessage(viaBytes('ResetRequest', resetRequestToMessage(ResetRequest.parse({}))))).toEqual({});
    const body = stepBodyFromMessage(
      viaBytes('StepRequest', stepRequestToMessage({ action_str: "click('1')", metadata: { why: 'test' } }, 2.5)),
    );
    expect(StepRequest.parse(body)).toEqual({
      action: { action_str: "click('1')", metadata: { why: 'test' } },
      timeout_s: 2.5,
    });
  });

  it('the step timeout is the shorter of the request and the call deadline', () => {
    const message = viaBytes<never>('StepRequest', stepRequestToMessage({ action_str: 'noop()', metadata: {} }, 10));
    expect(stepBodyFromMessage(message, 0.25)).toMatchObject({ timeout_s: 0.25 });
  });

  it('typed errors keep class, code and details', () => {
    const back = errorFromMessage(viaBytes('Error', errorToMessage(new CapacityError(2, 2).toWire())));
    expect(back).toBeInstanceOf(CapacityError);
    expect(back.details).toEqual({ active_sessions: 2, max_sessions: 2 });
    const issues = [{ loc: ['body', 'seed'], msg: 'too small', type: 'too_small', input: -1 }];
    const validation = errorFromMessage(viaBytes('Error', errorToMessage(new ValidationError('bad', issues).toWire())));
    expect((validation as ValidationError).issues).toEqual(issues);
  });
});
