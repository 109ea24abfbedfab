import { OriginRefusedError, UnknownTaskError, ValidationError } from '@gauntlet/proto';
import { UsageError } from '@gauntlet/proto/cli';
import { describe, expect, it } from 'vitest';
import { flagWebOptions } from './web-run.js';

const thrown = (error: unknown) => {
  try {
    flagWebOptions(error);
  } catch (flagged) {
    return flagged as Error;
  }
  return undefined;
};
const optionError = (key: string, msg: string) =>
  new ValidationError(`options.${key}: ${msg}`, [{ loc: ['body', 'options', key], msg, type: 'custom' }]);

describe("the env's refusals of a web run, as the flags to fix", () => {
  it('a refused origin or a page that does not load: one line naming --url, not a usage error (exit 1)', () => {
    const refused = thrown(new OriginRefusedError('http://x/', 'Navigation to http://x/ is blocked: …'));
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).not.toBeInstanceOf(UsageError);
    expect(refused!.message).toBe('--url: Navigation to http://x/ is blocked: …');
    expect(thrown(optionError('url', 'the start page did not load (net::ERR_X)'))!.message).toBe(
      '--url: the start page did not load (net::ERR_X)',
    );
  });

  it('a malformed goal spec or step budget: a usage error naming its flag (exit 2)', () => {
    for (const [key, flag] of [
      ['success_url', 'success-url'],
      ['success_text', 'success-text'],
      ['answer', 'answer'],
      ['max_steps', 'max-steps'],
      ['goal', 'goal'],
    ]) {
      const flagged = thrown(optionError(key!, 'bad'));
      expect(flagged, key).toBeInstanceOf(UsageError);
      expect(flagged, key).toMatchObject({ message: `--${flag}: bad`, flag });
    }
  });

  it('an env without the web task names --url; other errors pass through untouched', () => {
    expect(thrown(new UnknownTaskError('web', ['miniwob.click-test']))!.message).toMatch(
      /^--url: the env server offers no open-web task/,
    );
    expect(thrown(new UnknownTaskError('click-tset', ['miniwob.click-test']))).toBeUndefined();
    expect(thrown(new Error('boom'))).toBeUndefined();
  });
});
