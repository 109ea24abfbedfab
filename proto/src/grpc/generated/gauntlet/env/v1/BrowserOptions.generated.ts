// Original file: env.proto


/**
 * Where the episode's browser runs: `headed` is a visible window (the server needs a display and
 * `serve --allow-headed`); `record` (implies headed) turns a person's input into actions.
 */
export interface BrowserOptions {
  'headed'?: (boolean);
  'record'?: (boolean);
  '_headed'?: "headed";
  '_record'?: "record";
}

/**
 * Where the episode's browser runs: `headed` is a visible window (the server needs a display and
 * `serve --allow-headed`); `record` (implies headed) turns a person's input into actions.
 */
export interface BrowserOptions__Output {
  'headed'?: (boolean);
  'record'?: (boolean);
  '_headed'?: "headed";
  '_record'?: "record";
}
