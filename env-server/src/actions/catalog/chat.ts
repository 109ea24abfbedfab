import type { HandlerTable } from './handler.js';
import { num, str } from './read-params.js';

/** Actions that never touch a page: they skip the settle. */
export const CHAT_HANDLERS: HandlerTable = {
  // noop's wait is its own settle; the step deadline aborts it.
  noop: { touchesPage: false, run: (params, ctx) => ctx.deadline.sleep(num(params, 'wait_ms', 1000)) },
  send_msg_to_user: { touchesPage: false, run: async (params, ctx) => ctx.sendMessageToUser(str(params, 'text')) },
  report_infeasible: { touchesPage: false, run: async (params, ctx) => ctx.reportInfeasible(str(params, 'reason')) },
};
