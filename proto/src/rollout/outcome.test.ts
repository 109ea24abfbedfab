import { describe, expect, it } from 'vitest';
import {
  CapacityError,
  DeadlineExceededError,
  InfraError,
  NotFoundError,
  SessionError,
  UnauthorizedError,
  ValidationError,
} from '../errors.js';
import { PolicyReplyError, PolicyRequestError, PolicyUnavailableError } from '../policy-server/errors.js';
import {
  ContextBudgetError,
  EpisodeTimeoutError,
  PolicyGaveUpError,
  isUnrecoverable,
  outcomeFromError,
} from './outcome.js';

describe('outcomeFromError', () => {
  it('budgets end as timeout, a policy giving up as fail, everything else as infra_error', () => {
    expect(outcomeFromError(new EpisodeTimeoutError('episode deadline'))).toBe('timeout');
    expect(outcomeFromError(new ContextBudgetError('too long'))).toBe('timeout');
    expect(outcomeFromError(new PolicyGaveUpError('stuck'))).toBe('fail');
    const infra = [
      new InfraError('browser died'),
      new SessionError('lost'),
      new CapacityError(1, 1),
      new PolicyUnavailableError('503', 503),
      new DeadlineExceededError('one step took too long'),
      new PolicyReplyError('no token ids'),
      new TypeError('a bug'),
      'a string',
    ];
    for (const error of infra) expect(outcomeFromError(error), String(error)).toBe('infra_error');
  });
});

describe('isUnrecoverable', () => {
  it('is true for a wrong job (bad input, wrong model, wrong token), false for what a retry may cure', () => {
    for (const error of [
      new ValidationError('Unknown task'),
      new PolicyRequestError('no such model', 404),
      new UnauthorizedError(),
      new NotFoundError('x'),
    ]) {
      expect(isUnrecoverable(error), error.name).toBe(true);
    }
    for (const error of [
      new InfraError('x'),
      new PolicyUnavailableError('x', 0),
      new EpisodeTimeoutError('x'),
      new Error('x'),
    ]) {
      expect(isUnrecoverable(error), error.name).toBe(false);
    }
  });
});
