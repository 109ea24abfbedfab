import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { ResetRequest, StepRequest } from './requests.js';
import { WsClientFrame } from './ws.js';
import { parseOrThrow } from './validate.js';

describe('parseOrThrow', () => {
  it('returns parsed data and strips unknown reset keys (OpenEnv drops them)', () => {
    expect(parseOrThrow(ResetRequest, { seed: 3, task_name: 'click-test', surprise: 1 })).toEqual({
      seed: 3,
      task_name: 'click-test',
    });
  });

  it('reports FastAPI-style issues with loc, msg, type and input', () => {
    try {
      parseOrThrow(ResetRequest, { seed: -2 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      const issue = (error as ValidationError).issues[0]!;
      expect(issue).toMatchObject({ loc: ['body', 'seed'], input: -2, type: 'too_small' });
      expect((error as ValidationError).message).toMatch(/^Invalid request: body.seed: /);
    }
  });

  it('rejects unknown action fields', () => {
    expect(() => parseOrThrow(StepRequest, { action: { action_str: 'noop()', bogus: 1 } })).toThrow(/body.action/);
  });

  it('websocket frames reject unknown top-level keys', () => {
    expect(() => parseOrThrow(WsClientFrame, { type: 'state', extra: true }, [])).toThrow(ValidationError);
    expect(parseOrThrow(WsClientFrame, { type: 'reset' }, [])).toEqual({ type: 'reset', data: {} });
  });
});
