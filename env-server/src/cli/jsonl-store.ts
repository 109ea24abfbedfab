import { createReadStream, existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Values of `field` in every record of a JSONL file (none when the file does not exist yet), so
 * a collection can append to earlier runs without repeating their episodes. A line that is not
 * JSON (an interrupted write) is skipped and reported.
 */
export async function readField(
  file: string,
  field: string,
  onBadLine: (line: number) => void = () => {},
): Promise<Set<string>> {
  const found = new Set<string>();
  if (!existsSync(file)) return found;
  let number = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    number += 1;
    if (line.trim() === '') continue;
    try {
      const value = (JSON.parse(line) as Record<string, unknown>)[field];
      if (typeof value === 'string') found.add(value);
    } catch {
      onBadLine(number);
    }
  }
  return found;
}

/** Appends records, one JSON line each, in one write (an episode lands whole or not at all). */
export async function appendRecords(file: string, records: readonly unknown[]): Promise<void> {
  if (records.length === 0) return;
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}
