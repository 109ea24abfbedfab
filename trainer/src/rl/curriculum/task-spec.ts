/** One task the run trains on and its share of the groups (before the curriculum reweights it). */
export interface TaskSpec {
  name: string;
  weight: number;
  /** Reset options every group of the task carries (e.g. `web`'s url and goal), over the curriculum's. */
  resetOptions?: Record<string, unknown>;
}

/**
 * `NAME[=WEIGHT]` (e.g. `miniwob.click-test=2`, `gauntlet:timer=3` for one Gauntlet challenge
 * type); the weight defaults to 1 and must be > 0.
 */
export function parseTaskSpec(text: string): TaskSpec {
  const at = text.lastIndexOf('=');
  const name = (at < 0 ? text : text.slice(0, at)).trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:/-]*$/.test(name))
    throw new RangeError(`task ${JSON.stringify(text)}: the name must be letters, digits, "_", ".", ":", "/" or "-"`);
  if (at < 0) return { name, weight: 1 };
  const raw = text.slice(at + 1).trim();
  const weight = Number(raw);
  if (raw === '' || !Number.isFinite(weight) || weight <= 0)
    throw new RangeError(`task ${JSON.stringify(text)}: the weight after "=" must be a number > 0`);
  return { name, weight };
}

/** Every task once; a name given twice is refused (which weight was meant?). */
export function parseTaskSpecs(texts: readonly string[]): TaskSpec[] {
  const tasks = texts.map(parseTaskSpec);
  const twice = tasks.find((t, i) => tasks.findIndex((u) => u.name === t.name) !== i);
  if (twice) throw new RangeError(`task ${JSON.stringify(twice.name)} is given twice`);
  return tasks;
}
