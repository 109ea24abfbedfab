import { describe, expect, it } from 'vitest';
import {
  isRetiredVersionReason,
  laterVersionServed,
  parseVersionName,
  PolicyVersionRetiredError,
  versionName,
} from './policy-version.js';

describe('policy versions', () => {
  it('names and parses <run>@v<N>, runs with "@" included', () => {
    expect(versionName('click', 12)).toBe('click@v12');
    expect(parseVersionName('a@b@v3')).toEqual({ run: 'a@b', version: 3 });
    expect(parseVersionName('tiny')).toBeNull();
  });

  it('a version is retired only when a later version of the same run is served', () => {
    expect(laterVersionServed('run@v1', ['tiny', 'run@v2'])).toBe(true);
    expect(laterVersionServed('run@v3', ['tiny', 'run@v2'])).toBe(false);
    expect(laterVersionServed('run@v1', ['tiny', 'other@v9', 'run@v1x'])).toBe(false);
    expect(laterVersionServed('plain', ['plain@v2'])).toBe(false);
  });

  it("a retired version's reason is told apart even wrapped in a job's failure", () => {
    const error = new PolicyVersionRetiredError('run@v1', 'serves run@v2');
    expect(error.code).toBe('NOT_FOUND');
    expect(isRetiredVersionReason(`episode g.0 cannot be played: ${error.message}`)).toBe(true);
    expect(isRetiredVersionReason('policy server refused the tokenize request (404): no such model')).toBe(false);
  });
});
