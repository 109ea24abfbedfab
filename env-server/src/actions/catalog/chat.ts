import { defineAction } from './define.js';
import { text } from './params.js';
import { WAIT_MS_RANGE } from './ranges.js';
import { num, str } from './read-params.js';

/** Actions that never touch a page: they skip the settle. */

export const noop = defineAction({
  name: 'noop',
  subsets: 'noop',
  params: [{ name: 'wait_ms', kind: 'number', default: 1000, range: WAIT_MS_RANGE }],
  description: 'Do nothing, and wait wait_ms milliseconds (e.g. for the page to load).',
  examples: ['noop()', 'noop(500)'],
  touchesPage: false,
  // noop's wait is its own settle; the step deadline aborts it.
  run: (params, ctx) => ctx.deadline.sleep(num(params, 'wait_ms', 1000)),
});

export const sendMsgToUser = defineAction({
  name: 'send_msg_to_user',
  subsets: 'chat',
  params: [text('text')],
  description: 'Send a message to the user (e.g. the answer they asked for).',
  examples: ["send_msg_to_user('Based on the results of my search, the city was built in 1751.')"],
  touchesPage: false,
  run: async (params, ctx) => ctx.sendMessageToUser(str(params, 'text')),
});

export const reportInfeasible = defineAction({
  name: 'report_infeasible',
  subsets: 'infeas',
  params: [text('reason')],
  description: 'Tell the user their instructions cannot be carried out; ends the episode.',
  examples: ["report_infeasible('I cannot follow these instructions because there is no email field in this form.')"],
  touchesPage: false,
  run: async (params, ctx) => ctx.reportInfeasible(str(params, 'reason')),
});
