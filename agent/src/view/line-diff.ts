/** One line of a diff: kept (' '), removed ('-'), added ('+'), or a run of kept lines left out ('…'). */
export type DiffLine = { op: ' ' | '-' | '+'; text: string } | { op: '…'; count: number };

/** Above this many cells the middle is shown as replaced whole instead of aligned (keeps a request fast). */
const MAX_CELLS = 4_000_000;

/**
 * A line diff of two texts (longest common subsequence after trimming the shared head and tail),
 * with kept lines more than `context` lines away from a change folded into one '…' entry.
 */
export function lineDiff(before: string, after: string, context = 2): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const keep = (text: string) => ({ op: ' ' as const, text });
  const lines: Exclude<DiffLine, { op: '…' }>[] = [
    ...a.slice(0, head).map(keep),
    ...alignMiddle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map(keep),
  ];
  return fold(lines, context);
}

function alignMiddle(a: string[], b: string[]): Exclude<DiffLine, { op: '…' }>[] {
  const removed = (text: string) => ({ op: '-' as const, text });
  const added = (text: string) => ({ op: '+' as const, text });
  if (a.length * b.length > MAX_CELLS) return [...a.map(removed), ...b.map(added)];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const out: Exclude<DiffLine, { op: '…' }>[] = [];
  let [i, j] = [0, 0];
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) out.push(removed(a[i++]!));
    else out.push(added(b[j++]!));
  }
  return [...out, ...a.slice(i).map(removed), ...b.slice(j).map(added)];
}

function fold(lines: Exclude<DiffLine, { op: '…' }>[], context: number): DiffLine[] {
  const near = new Uint8Array(lines.length);
  lines.forEach((line, k) => {
    if (line.op === ' ') return;
    for (let d = Math.max(0, k - context); d <= Math.min(lines.length - 1, k + context); d++) near[d] = 1;
  });
  const out: DiffLine[] = [];
  for (let k = 0; k < lines.length; k++) {
    if (lines[k]!.op !== ' ' || near[k]) {
      out.push(lines[k]!);
      continue;
    }
    let count = 0;
    while (k < lines.length && lines[k]!.op === ' ' && !near[k]) {
      count++;
      k++;
    }
    k--;
    out.push({ op: '…', count });
  }
  return out;
}
