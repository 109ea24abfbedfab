// Short forms of grpo's plain rows; the typed ones (ranges, choices, defaults) are written out whole.
/** A string flag the kit takes as given. */
export const s = <D extends string | undefined = undefined>(valueName: string, help: string, defaultText?: D) =>
  ({ kind: 'string', valueName, help, ...(defaultText === undefined ? {} : { defaultText }) }) as const;
/** A repeatable flag whose values are taken whole (task names, URLs and keys are never split at commas). */
export const many = (valueName: string, help: string, defaultText?: string) =>
  ({
    kind: 'list',
    valueName,
    help,
    repeatable: true,
    noSplit: true,
    ...(defaultText === undefined ? {} : { defaultText }),
  }) as const;
export const flag = (help: string) => ({ kind: 'boolean', help }) as const;
