// Command-line options of the learning benchmarks: one table gives the parser, --help and checks.
import { parseArgs } from 'node:util';

/**
 * Parses process.argv against `options` ({ name: { type, default, help, multiple? } }); --help
 * prints `usage` and the table, then exits 0. `number(name, min, max)` reads a numeric option,
 * exiting 2 with the flag named when it is not a number in range; `choice(name, allowed)` reads one
 * of a fixed set of words the same way.
 */
export function benchOptions(options, usage) {
  const { values } = parseArgs({
    options: Object.fromEntries(
      Object.entries(options).map(([k, v]) => [k, { type: v.type, multiple: v.multiple === true, default: v.default }]),
    ),
  });
  if (values.help) {
    console.log(usage);
    for (const [name, o] of Object.entries(options))
      console.log(
        `  --${name.padEnd(14)} ${o.help}${o.type === 'boolean' || o.multiple ? '' : ` (default: ${o.default})`}`,
      );
    process.exit(0);
  }
  const number = (name, min, max = Infinity) => {
    const v = Number(values[name]);
    if (!Number.isFinite(v) || v < min || v > max) {
      const range = max === Infinity ? `≥ ${min}` : `in [${min}, ${max}]`;
      console.error(`--${name} must be a number ${range}; got ${JSON.stringify(values[name])}`);
      process.exit(2);
    }
    return v;
  };
  const choice = (name, allowed) => {
    const v = values[name];
    if (!allowed.includes(v)) {
      console.error(`--${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(v)}`);
      process.exit(2);
    }
    return v;
  };
  return { values, number, choice };
}

/** Stop functions, stopped last first (a failure to stop is ignored: the rest still stop). */
export function stopStack() {
  const stops = [];
  return {
    push: (stop) => stops.push(stop),
    async stopAll() {
      while (stops.length)
        await stops
          .pop()()
          .catch(() => {});
    },
  };
}
