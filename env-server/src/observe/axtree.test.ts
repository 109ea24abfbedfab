import { describe, expect, it } from 'vitest';
import type { ElementProperties } from '@gauntlet/proto';
import { formatAXTree } from './axtree.js';
import type { AXTreeNode } from './axtree-fetch.js';

const node = (
  role: string,
  name: string | undefined,
  extra: Partial<AXTreeNode> = {},
  children: AXTreeNode[] = [],
): AXTreeNode => ({
  role,
  ...(name === undefined ? {} : { name }),
  properties: [],
  children,
  ...extra,
});

describe('formatAXTree', () => {
  it('prints BrowserGym lines: bid, quoted name, value, then properties', () => {
    const tree = node('RootWebArea', 'Book Flight Task', { properties: [['focused', true]] }, [
      node('heading', 'Book Your One-Way Flight', { bid: '17', properties: [['level', 2]] }),
      node(
        'textbox',
        'To:',
        {
          bid: '21',
          value: 'Elmira, NY',
          properties: [
            ['focusable', true],
            ['focused', true],
            ['required', false],
            ['autocomplete', 'list'],
          ],
        },
        [node('StaticText', 'Elmira, NY')],
      ),
      node('checkbox', "Bob's", {
        bid: '22',
        properties: [
          ['checked', 'false'],
          ['disabled', true],
        ],
      }),
    ]);
    expect(formatAXTree(tree)).toBe(
      [
        "RootWebArea 'Book Flight Task', focused",
        "\t[17] heading 'Book Your One-Way Flight'",
        "\t[21] textbox 'To:' value='Elmira, NY', focused, autocomplete='list'",
        "\t\tStaticText 'Elmira, NY'",
        "\t[22] checkbox \"Bob's\", checked='false', disabled=True",
      ].join('\n'),
    );
  });

  it('skips LineBreak, nameless, bare generic and redundant StaticText nodes but keeps their children', () => {
    const tree = node('RootWebArea', 'T', {}, [
      node('none', undefined, {}, [node('button', 'Go', { bid: '3' }, [node('StaticText', 'Go')])]),
      node('generic', '', { bid: '4' }, [node('StaticText', 'loose text'), node('LineBreak', '\n')]),
      node('generic', '', { bid: '5', properties: [['live', 'polite']] }),
      node('link', 'Read more', { bid: '6' }, [node('StaticText', 'more')]),
    ]);
    expect(formatAXTree(tree)).toBe(
      [
        "RootWebArea 'T'",
        "\t[3] button 'Go'",
        "\tStaticText 'loose text'",
        "\t[5] generic, live='polite'",
        "\t[6] link 'Read more'",
      ].join('\n'),
    );
  });

  it('strips and escapes names the way Python repr does', () => {
    const tree = node('RootWebArea', '', {}, [node('paragraph', '  two\nlines\u00a0 ', { bid: '1' })]);
    expect(formatAXTree(tree)).toBe("RootWebArea ''\n\t[1] paragraph 'two\\nlines'");
  });

  it('adds the requested extras before the properties, in BrowserGym order', () => {
    const properties: Record<string, ElementProperties> = {
      '7': { visibility: 0.5, bbox: [10, 20, 101, 30.5], clickable: true, set_of_marks: true },
      '8': { visibility: 0.2, bbox: null, clickable: false, set_of_marks: false },
    };
    const tree = node('RootWebArea', 'T', {}, [
      node('button', 'OK', { bid: '7', properties: [['focused', true]] }),
      node('button', 'Hidden', { bid: '8' }),
    ]);
    const all = { boundingBox: true, center: true, clickable: true, visible: true, som: true };
    expect(formatAXTree(tree, properties, all)).toBe(
      [
        "RootWebArea 'T'",
        '\t[7] button \'OK\', box="(10,20,111,50)", center="(60,35)", clickable, visible, som, focused',
        "\t[8] button 'Hidden'",
      ].join('\n'),
    );
    expect(formatAXTree(tree, properties, { center: true, coordDecimals: 1 })).toContain('center="(60.5,35.2)"');
  });
});
