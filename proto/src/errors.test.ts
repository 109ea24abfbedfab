import { describe, expect, it } from 'vitest';
import {
  CapacityError,
  EpisodeStateError,
  ExecutionError,
  GauntletError,
  InfraError,
  SessionNotFoundError,
  UnknownTaskError,
  ValidationError,
  errorFromCode,
  errorFromWire,
} from './errors.js';

describe('typed errors travel over the wire', () => {
  it.each([
    [new CapacityError(8, 8), 'CAPACITY_REACHED', 503],
    [new InfraError('browser died'), 'INFRA_ERROR', 503],
    [new SessionNotFoundError('abc'), 'SESSION_NOT_FOUND', 404],
    [
      new ValidationError('bad', [{ loc: ['body', 'seed'], msg: 'too small', type: 'too_small' }]),
      'VALIDATION_ERROR',
      422,
    ],
    [new EpisodeStateError('reset first'), 'EXECUTION_ERROR', 409],
    [new UnknownTaskError('x', ['click-test']), 'VALIDATION_ERROR', 422],
  ])('%s keeps its class, code and details', (error, code, status) => {
    expect(error.code).toBe(code);
    expect(error.httpStatus).toBe(status);
    const wire = JSON.parse(JSON.stringify(error.toWire()));
    expect(wire.name).toBe(error.constructor.name);
    const rebuilt = errorFromWire(wire);
    expect(rebuilt).toBeInstanceOf(error.constructor);
    expect(rebuilt).toBeInstanceOf(GauntletError);
    expect(rebuilt.message).toBe(error.message);
    expect(rebuilt.details).toEqual(error.details);
  });

  it('an unknown task is a ValidationError that points at task_name and lists the choices once', () => {
    const error = new UnknownTaskError('x', ['click-test', 'enter-text']);
    expect(error.message).toBe('Unknown task "x". Available: click-test, enter-text');
    const rebuilt = errorFromWire(error.toWire());
    expect(rebuilt).toBeInstanceOf(ValidationError);
    expect((rebuilt as ValidationError).issues).toEqual([
      { loc: ['body', 'task_name'], msg: 'Unknown task "x"', type: 'value_error', input: 'x' },
    ]);
    expect(JSON.stringify(error.toWire()).split('enter-text')).toHaveLength(2);
    expect(new UnknownTaskError('x', ['a.x', 'b.x'], true).message).toBe('Task name "x" is ambiguous: a.x, b.x');
  });

  it('a step that does not fit the episode is a 409 that clients still catch as an ExecutionError', () => {
    expect(errorFromWire(new EpisodeStateError('reset first').toWire())).toBeInstanceOf(ExecutionError);
    expect(new ExecutionError('Internal error').httpStatus).toBe(500);
  });

  it('capacity errors carry the counts OpenEnv clients read', () => {
    expect(new CapacityError(3, 4).toWire().details).toEqual({ active_sessions: 3, max_sessions: 4 });
  });

  it('unknown names rebuild as a plain GauntletError', () => {
    const rebuilt = errorFromWire({ name: 'Mystery', message: 'm', code: 'EXECUTION_ERROR' });
    expect(rebuilt).toBeInstanceOf(GauntletError);
    expect(rebuilt.name).toBe('Mystery');
  });
});

describe('errors rebuilt from a code alone (OpenEnv /ws frames)', () => {
  it('every code maps back to its class, extra fields become details', () => {
    const capacity = errorFromCode('CAPACITY_REACHED', 'full', { active_sessions: 2, max_sessions: 2 });
    expect(capacity).toBeInstanceOf(CapacityError);
    expect(capacity.details).toEqual({ active_sessions: 2, max_sessions: 2 });
    expect(errorFromCode('SESSION_NOT_FOUND', 'gone')).toBeInstanceOf(SessionNotFoundError);
    expect(errorFromCode('SOMETHING_NEW', 'x').name).toBe('GauntletError');
  });

  it('a class name sent beside the code picks a subclass of that code, and nothing else', () => {
    const early = errorFromCode('EXECUTION_ERROR', 'Call reset before step', undefined, 'EpisodeStateError');
    expect(early).toBeInstanceOf(EpisodeStateError);
    expect(early.httpStatus).toBe(409);
    expect(errorFromCode('EXECUTION_ERROR', 'x', undefined, 'CapacityError')).not.toBeInstanceOf(CapacityError);
    expect(errorFromCode('EXECUTION_ERROR', 'x', undefined, 'NoSuchError').name).toBe('ExecutionError');
  });

  it('a rebuilt ValidationError keeps its issues', () => {
    const issues = [{ loc: ['body', 'seed'], msg: 'too small', type: 'too_small' }];
    const rebuilt = errorFromCode('VALIDATION_ERROR', 'bad', { errors: issues });
    expect(rebuilt).toBeInstanceOf(ValidationError);
    expect((rebuilt as ValidationError).issues).toEqual(issues);
  });
});
