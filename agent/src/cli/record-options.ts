import { defineOptions } from '@gauntlet/proto/cli';
import { WEB_OPTIONS } from './web-options.js';

/** Every flag of `gauntlet-agent record`. */
export const RECORD_OPTIONS = defineOptions({
  task: { kind: 'string', help: 'The task to demonstrate: click-button, gauntlet:timer, …', valueName: 'NAME' },
  seed: { kind: 'integer', help: 'The episode seed', default: 0, min: 0 },
  url: {
    ...WEB_OPTIONS.url,
    help: "Record on an open-web task starting on this http(s) page instead of --task (the env's `web` task); Ctrl-C ends it",
  },
  goal: { ...WEB_OPTIONS.goal, help: 'What the person is asked to do on --url, in plain words' },
  'allow-origin': WEB_OPTIONS['allow-origin'],
  replay: {
    kind: 'string',
    help: "Replay a recording's actions on a fresh episode of its task and seed; exit 0 when it reaches the recorded reward, 1 when not",
    valueName: 'DEMO_JSON',
  },
  out: {
    kind: 'string',
    help: 'Output folder (demo.json, demo.jsonl, screenshots/)',
    defaultText: 'demos/<task>-<seed>-<time> (web-<time> with --url)',
    valueName: 'DIR',
  },
  headed: { kind: 'boolean', help: 'With --replay: show the replay in a visible browser (recording always does)' },
  env: {
    kind: 'string',
    help: 'Env server URL (http:// or ws://; recording needs one started with --allow-headed and a display)',
    env: 'GAUNTLET_ENV_URL',
    defaultText: 'start a local gauntlet-env serve --allow-headed',
    valueName: 'URL',
  },
  'env-token': { kind: 'string', help: "The env server's bearer token", env: 'GAUNTLET_TOKEN', valueName: 'TOKEN' },
  'env-bin': {
    kind: 'string',
    help: 'The gauntlet-env binary for the local server',
    defaultText: 'node_modules/.bin/gauntlet-env, else PATH',
    valueName: 'PATH',
  },
  'max-steps': { kind: 'integer', help: 'Stop recording after this many actions', default: 400, min: 1 },
});
