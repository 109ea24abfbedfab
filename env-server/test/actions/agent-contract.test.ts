import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, ACTION_REGEX, parseAction } from '@gauntlet/proto/agent';
import { ACTIONS } from '../../src/actions/catalog/actions.js';
import { parseActions } from '../../src/actions/language/parse.js';

// The agent side of the action language (proto/src/agent) against the env's catalog: the same
// names, and every documented example is admitted by the constrained-decoding regex and comes
// back from the reply parser exactly as written.
describe('agent action contract', () => {
  it('knows exactly the actions the env defines', () => {
    expect([...ACTION_NAMES]).toEqual(ACTIONS.map((a) => a.name));
  });

  it.each(ACTIONS.flatMap((a) => a.examples.map((example) => [a.name, example])))(
    '%s: %s parses back unchanged and matches the action regex',
    (_name, example) => {
      expect(parseAction(example)).toEqual({ action: example, fallback: false });
      expect(new RegExp(`^(?:${ACTION_REGEX})$`).test(example)).toBe(true);
      expect(() => parseActions(example, { strict: false, multiAction: false })).not.toThrow();
    },
  );
});
