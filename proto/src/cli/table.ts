/** A plain-text table: columns padded to their widest cell, numbers right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || /^[\d.]+%?$/.test(String(row[i]))),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
