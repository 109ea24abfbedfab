import { describe, expect, it } from 'vitest';
import { AxtreeParseError, parseAxtree, parseAxtreeLine } from './axtree-lines.js';

describe('parseAxtreeLine', () => {
  it('reads a BrowserGym line with bid, name, value and properties', () => {
    const node = parseAxtreeLine(
      `\t\t[21] textbox 'To:' value='Elmira, NY', clickable, visible, focused, box="(1,2,3,4)", level=2`,
    );
    expect(node).toEqual({
      depth: 2,
      bid: '21',
      role: 'textbox',
      name: 'To:',
      value: 'Elmira, NY',
      props: new Map<string, string | true>([
        ['clickable', true],
        ['visible', true],
        ['focused', true],
        ['box', '(1,2,3,4)'],
        ['level', '2'],
      ]),
    });
  });

  it('reads lines without a bid, without a name, and frame-prefixed bids', () => {
    expect(parseAxtreeLine(`RootWebArea 'Login User Task', focused`)).toMatchObject({
      depth: 0,
      bid: undefined,
      role: 'RootWebArea',
      name: 'Login User Task',
    });
    expect(parseAxtreeLine(`\t[a12] textbox`)).toMatchObject({
      bid: 'a12',
      role: 'textbox',
      name: '',
      value: undefined,
    });
  });

  it('decodes Python repr quoting: double quotes around a single quote, escapes', () => {
    expect(parseAxtreeLine(`[3] link "it's here"`).name).toBe("it's here");
    expect(parseAxtreeLine(String.raw`[4] StaticText 'a\'b\nc\\d\x41\u00e9'`).name).toBe("a'b\nc\\dAé");
    expect(parseAxtreeLine(`[5] textbox 'Password' value='••••'`).value).toBe('••••');
  });

  it('rejects malformed lines, naming the line', () => {
    expect(() => parseAxtreeLine(`[1] button 'unterminated`)).toThrow(AxtreeParseError);
    expect(() => parseAxtreeLine(`[1] button 'ok' trailing`)).toThrow(/unexpected text at 15 in AXTree line/);
  });
});

describe('numeric values', () => {
  it('reads a bare number value as the formatter prints it for spinbuttons and sliders', () => {
    const node = parseAxtreeLine(`\t[30] spinbutton 'Age' value=60, focused, valuetext='60'`);
    expect(node.value).toBe('60');
    expect(node.props.get('valuetext')).toBe('60');
    expect(parseAxtreeLine(`[5] slider 'Level' value=-2.5e1`).value).toBe('-2.5e1');
  });
});

describe('parseAxtree', () => {
  it('parses every non-blank line in order', () => {
    const text = `RootWebArea 'Click Test Task', focused\n\tStaticText 'Click the button.'\n\n\t[13] button 'Click Me!'\n`;
    expect(parseAxtree(text).map((n) => [n.bid, n.role])).toEqual([
      [undefined, 'RootWebArea'],
      [undefined, 'StaticText'],
      ['13', 'button'],
    ]);
  });
});
