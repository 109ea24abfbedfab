import { defineOptions } from '@gauntlet/proto/cli';

/** The flags of an open-web run (`run --url URL --goal TEXT`): the env's `web` task and its goal spec. */
export const WEB_OPTIONS = defineOptions({
  url: {
    kind: 'string',
    help: "Play an open-web task starting on this http(s) page instead of --task (the env's `web` task)",
    valueName: 'URL',
  },
  goal: { kind: 'string', help: 'What the agent is asked to do on --url, in plain words', valueName: 'TEXT' },
  'success-url': {
    kind: 'string',
    help: "With --url: success needs the final page's URL to match this JavaScript regex (searched, no flags)",
    valueName: 'REGEX',
  },
  'success-text': {
    kind: 'string',
    help: "With --url: success needs the final page's text to match this regex",
    valueName: 'REGEX',
  },
  answer: {
    kind: 'string',
    help: "With --url: success needs the agent's send_msg_to_user answer to match this regex (without any of the three the episode is unjudged)",
    valueName: 'REGEX',
  },
  'allow-origin': {
    kind: 'list',
    help: "More origins the local env's pages may reach besides --url's own, which is always allowed when the agent starts the env (not with --env: that server's operator decides)",
    valueName: 'ORIGIN',
  },
});
