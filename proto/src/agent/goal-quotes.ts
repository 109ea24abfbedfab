/** Every double-quoted value in `text`, in order: our goals quote each value to type or click. */
export function quotedValues(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
}

/** `text` as a regex source matching exactly itself (plain escapes every regex backend reads). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
