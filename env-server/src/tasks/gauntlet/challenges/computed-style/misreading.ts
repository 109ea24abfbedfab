import { below, findAll } from '../../../oracle-helpers/ax-query.js';
import type { Misreading } from '../../oracle/decoy.js';

/** A row of the character grid read across, as if every cell in it were drawn. */
export const computedStyleMisreading: Misreading = (v) =>
  v.puzzle
    .map((n, i) => [n, i] as const)
    .filter(([n]) => n.role === 'row')
    .map(([, i]) =>
      findAll(below(v.puzzle, i), 'cell')
        .map((c) => c.name)
        .join(''),
    )
    .filter((row) => /^[A-Z0-9]{6}$/.test(row));
