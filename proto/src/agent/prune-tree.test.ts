import { describe, expect, it } from 'vitest';
import { stepResult } from '../../test/fake-env.js';
import { pruneTree } from './prune-tree.js';
import { renderObservation } from './render.js';

const lines = (...l: string[]) => l.join('\n');

describe('pruneTree', () => {
  it('drops the root line, the goal repeated on the page, nameless containers and non-state properties', () => {
    const tree = lines(
      "RootWebArea 'Click Button Task', focused, url='http://t/click-button.html'",
      '\tStaticText \'Click on the "fern" button.\'',
      "\tStaticText 'Pick one:'",
      "\t[6] button 'foam', hasPopup='menu'",
      "\t[7] button 'fern', focused",
      '\tgeneric',
      "\t\t[9] checkbox 'hope', checked='false'",
    );
    expect(pruneTree(tree, { goal: 'Click on the "fern" button.' })).toBe(
      lines(
        "StaticText 'Pick one:'",
        "[6] button 'foam'",
        "[7] button 'fern', focused",
        "[9] checkbox 'hope', checked='false'",
      ),
    );
  });

  it("keeps a closed drop-down's own line but not its options; an open list keeps its options, selected=False dropped", () => {
    const tree = lines(
      "RootWebArea 'Book'",
      "\t[7] combobox 'From' value='Choose a city', hasPopup='menu', expanded=False",
      "\t\tMenuListPopup ''",
      "\t\t\t[8] option 'Choose a city', selected=True",
      "\t\t\t[9] option 'Boston', selected=False",
      "\t[22] listbox 'Suggestions'",
      "\t\t[23] option 'Peru', selected=False",
      "\t\t[24] option 'Chile', selected=True",
      "\t[37] textbox 'Departure date'",
    );
    expect(pruneTree(tree)).toBe(
      lines(
        "[7] combobox 'From' value='Choose a city', expanded=False",
        "[22] listbox 'Suggestions'",
        "\t[23] option 'Peru'",
        "\t[24] option 'Chile', selected=True",
        "[37] textbox 'Departure date'",
      ),
    );
  });

  it('moves the children of a dropped node up and keeps text next to the elements it labels', () => {
    const tree = lines(
      "RootWebArea 'Inbox'",
      "\t[7] link 'Malik Rope roof', url='http://t/#'",
      "\t\t[8] strong ''",
      "\t\t\tStaticText 'Malik'",
      "\t[24] paragraph ''",
      "\t\tStaticText 'base life flag'",
    );
    expect(pruneTree(tree)).toBe(
      lines("[7] link 'Malik Rope roof'", "\tStaticText 'Malik'", "StaticText 'base life flag'"),
    );
  });

  it('keeps names with quotes and commas exactly as printed, and lines it cannot read as they are', () => {
    const tree = lines(
      "RootWebArea 'x'",
      '\t[3] button "it\'s, done", disabled=True',
      "\t[4] textbox 'a \\'b\\', c' value='x, y', required",
      '\tnot a tree line {',
    );
    expect(pruneTree(tree)).toBe(
      lines(
        '[3] button "it\'s, done", disabled=True',
        "[4] textbox 'a \\'b\\', c' value='x, y', required",
        '\tnot a tree line {',
      ),
    );
  });

  it('cuts past maxLines and says how many lines were left out', () => {
    const tree = Array.from({ length: 30 }, (_, i) => `\t[${i}] button 'b${i}'`).join('\n');
    const pruned = pruneTree(`RootWebArea 'r'\n${tree}`, { maxLines: 10 }).split('\n');
    expect(pruned).toHaveLength(11);
    expect(pruned[9]).toBe("[9] button 'b9'");
    expect(pruned[10]).toBe('… (20 more lines not shown)');
  });
});

describe("renderObservation's pruned format", () => {
  it('renders the same sections with the pruned tree; the default format is the tree as sent', () => {
    const axtree = lines("RootWebArea 'T', focused", "\tStaticText 'Click it.'", "\t[5] button 'Go', hasPopup='menu'");
    const result = stepResult({ goal: 'Click it.', url: 'http://t/x', axtree });
    expect(renderObservation(result, { format: 'pruned' })).toBe(
      "# Goal\nClick it.\n\n# Current page\nhttp://t/x\n\n# Last action\n(none)\n\n# Accessibility tree\n[5] button 'Go'",
    );
    expect(renderObservation(result)).toBe(renderObservation(result, { format: 'axtree' }));
    expect(renderObservation(result)).toContain(axtree);
  });
});
