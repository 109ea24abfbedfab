import type { MiniwobTaskSpec } from '../define-task.js';
import { emailInboxOracle } from './oracle.js';
import { emailInboxHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'email-inbox',
  description: "Find the sender's email and delete, star, reply to or forward it.",
  html: emailInboxHtml,
  oracle: emailInboxOracle,
};
