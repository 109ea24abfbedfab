/** Resolves with `work`, or with undefined after `ms`, whichever comes first; never rejects on the timeout. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), undefined)));
  try {
    return await Promise.race([work, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}
