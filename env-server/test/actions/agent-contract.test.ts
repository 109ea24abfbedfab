import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, ACTION_REGEX, BID_ARGUMENTS, parseAction } from '@gauntlet/proto/agent';
import { ACTIONS, CATALOG, type ActionCatalog } from '../../src/actions/catalog/actions.js';
import { parseActions } from '../../src/actions/language/parse.js';

// The agent side of the action language (proto/src/agent) against the env's catalog: the same
// names, and every documented example is admitted by the constrained-decoding regex and comes
// back from the reply parser exactly as written.
describe('agent action contract', () => {
  it('knows exactly the actions the env defines', () => {
    expect([...ACTION_NAMES]).toEqual(ACTIONS.map((a) => a.name));
  });

  it('knows which leading arguments of each action are element ids', () => {
    const bids = (name: string) => BID_ARGUMENTS[name as keyof typeof BID_ARGUMENTS] ?? 0;
    for (const action of ACTIONS) {
      const leading = action.params.findIndex((p) => !p.bid);
      expect(leading === -1 ? action.params.length : leading, action.name).toBe(bids(action.name));
    }
  });

  it('a catalog that drifts from ACTION_NAMES does not compile (npm run typecheck:tests checks these lines)', () => {
    const { tab_focus: _dropped, ...withoutOne } = CATALOG;
    // @ts-expect-error a name of ACTION_NAMES without its definition
    const short: ActionCatalog = withoutOne;
    // @ts-expect-error an action filed under another action's name
    const swapped: ActionCatalog = { ...CATALOG, click: CATALOG.dblclick };
    // @ts-expect-error a name that is not in ACTION_NAMES
    const extra: ActionCatalog = { ...CATALOG, shout: CATALOG.noop };
    expect([short, swapped, extra].map((c) => Object.keys(c).length)).toEqual([32, 33, 34]);
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
