import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('marks removed and added lines and folds kept lines away from a change', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
    const after = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i'].join('\n');
    expect(lineDiff(before, after, 1)).toEqual([
      { op: '…', count: 3 },
      { op: ' ', text: 'd' },
      { op: '-', text: 'e' },
      { op: '+', text: 'E' },
      { op: ' ', text: 'f' },
      { op: '…', count: 1 },
      { op: ' ', text: 'h' },
      { op: '+', text: 'i' },
    ]);
  });

  it('aligns moved blocks on their common lines, and a first page is all added', () => {
    expect(lineDiff('x\n1\n2\ny', 'y\n1\n2\nx', 5).map((l) => ('text' in l ? l.op + l.text : '…'))).toEqual([
      '-x',
      '+y',
      ' 1',
      ' 2',
      '-y',
      '+x',
    ]);
    expect(lineDiff('', 'p\nq')).toEqual([
      { op: '+', text: 'p' },
      { op: '+', text: 'q' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ op: '…', count: 1 }]);
  });
});
