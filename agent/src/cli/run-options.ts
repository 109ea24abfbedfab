import { OBSERVATION_FORMATS } from '@gauntlet/proto';
import { defineOptions } from '@gauntlet/proto/cli';
import { LOCAL_OPTIONS } from './local-options.js';
import { WEB_OPTIONS } from './web-options.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Every flag of `gauntlet-agent run`; help, defaults, env vars and --config come from here. */
export const RUN_OPTIONS = defineOptions({
  task: {
    kind: 'list',
    help: 'Tasks to play: gauntlet, gauntlet:<type>, click-button, … (not with --url)',
    defaultText: 'gauntlet',
  },
  ...WEB_OPTIONS,
  seeds: { kind: 'string', help: 'Seeds: 7, 0-9 or 0,3,10-12', default: '0', valueName: 'SPEC' },
  mode: {
    kind: 'string',
    help: "Who acts: the env's oracle, a chat model (api), the oracle with the model taking over (hybrid), or a local model and adapter served by the trainer (local)",
    choices: ['oracle', 'api', 'hybrid', 'local'],
    default: 'oracle',
  },
  env: {
    kind: 'string',
    help: 'Env server URL (http://, ws:// or grpc://)',
    env: 'GAUNTLET_ENV_URL',
    defaultText: 'start a local gauntlet-env serve',
    valueName: 'URL',
  },
  'env-token': { kind: 'string', help: "The env server's bearer token", env: 'GAUNTLET_TOKEN', valueName: 'TOKEN' },
  'env-bin': {
    kind: 'string',
    help: 'The gauntlet-env binary for the local server',
    defaultText: 'node_modules/.bin/gauntlet-env, else PATH',
    valueName: 'PATH',
  },
  out: {
    kind: 'string',
    help: 'Output folder (metrics.json, episodes.jsonl)',
    defaultText: 'results/<mode>-<time>',
    valueName: 'DIR',
  },
  screenshots: {
    kind: 'boolean',
    help: "Also keep each turn's screenshot (PNG), AXTree and action position under the output folder, for `view`",
  },
  headed: {
    kind: 'boolean',
    help: 'Show the browser in a window while the agent plays (needs a display; a --env server must allow it with --allow-headed)',
  },
  'max-steps': {
    kind: 'integer',
    help: "Turns per episode before it ends as timeout (with --url also the web task's step budget: at most 1000)",
    default: 400,
    min: 1,
  },
  'episode-timeout': { kind: 'number', help: 'Seconds per episode before it ends as timeout', default: 3600, min: 1 },
  'oracle-step-actions': {
    kind: 'integer',
    help: 'Oracle actions on one step before it counts as stuck (hybrid: the model takes over)',
    default: 60,
    min: 1,
  },
  'base-url': {
    kind: 'string',
    help: 'OpenAI-compatible server (api, hybrid; local: a running vLLM-compatible server instead of --model-dir)',
    env: 'OPENAI_BASE_URL',
    default: OPENAI_BASE_URL,
    valueName: 'URL',
  },
  'api-key': { kind: 'string', help: 'Bearer key for --base-url', env: 'OPENAI_API_KEY', valueName: 'KEY' },
  model: {
    kind: 'string',
    help: "Model name sent to the server (api, hybrid; local with --base-url: default the server's first model)",
    env: 'OPENAI_MODEL',
    valueName: 'NAME',
  },
  temperature: { kind: 'number', help: 'Sampling temperature', default: 0, min: 0 },
  'top-p': { kind: 'number', help: 'Nucleus sampling mass', default: 1, min: 0, max: 1 },
  'max-tokens': { kind: 'integer', help: 'Most tokens per reply', default: 1024, min: 1 },
  'context-tokens': {
    kind: 'integer',
    help: 'Prompt + reply budget (estimated); the oldest exchanges are dropped to fit',
    default: 32768,
    min: 256,
  },
  'observation-format': {
    kind: 'string',
    help: "How the model sees a page: BrowserGym's accessibility tree as sent (axtree) or only interactive elements and nearby text (pruned); use the format the model was trained on",
    choices: OBSERVATION_FORMATS,
    default: 'axtree',
  },
  'call-timeout': { kind: 'number', help: 'Seconds per model call', default: 120, min: 0.001 },
  retries: {
    kind: 'integer',
    help: 'Retries of a model call after 429, 5xx, timeouts, refused connections',
    default: 4,
    min: 0,
  },
  'backoff-ms': { kind: 'integer', help: 'First retry wait in ms, doubled each retry', default: 1000, min: 0 },
  constrained: {
    kind: 'boolean',
    help: "Constrain each reply to one action naming only element ids the page shows (sent as structured_outputs: gauntlet-trainer serve and vLLM take it, OpenAI's API does not)",
  },
  'text-choices': {
    kind: 'boolean',
    help: "With --constrained: fill and select_option take only one of the goal's double-quoted values (a small model chooses what to type)",
  },
  'max-parse-errors': {
    kind: 'integer',
    help: 'Replies in a row without a valid action before the episode ends as fail',
    default: 3,
    min: 1,
  },
  ...LOCAL_OPTIONS,
});
