import type { BrowserContext, Page } from 'playwright-core';
import type { PageDeadline } from '../deadline/page-deadline.js';

/**
 * What an action may touch while it runs. The session implements it; the executor only uses
 * this interface, so actions stay testable on any page.
 */
export interface ActionContext {
  readonly context: BrowserContext;
  /** The page actions address (tab_focus changes it). */
  activePage(): Page;
  /** All open tabs in order; `active_page_index` indexes this list. */
  pages(): Page[];
  newTab(): Promise<Page>;
  closeActiveTab(): Promise<void>;
  focusTab(index: number): Promise<void>;
  /** `send_msg_to_user` appends here (role "assistant"). */
  sendMessageToUser(text: string): void;
  /** `report_infeasible` ends the episode. */
  reportInfeasible(reason: string): void;
  /** Throws an ActionError (PermissionError) when navigation to `url` is not allowed. */
  checkNavigation(url: string): void;
  /** Per-action timeout for bid actions (BrowserGym: 500 ms). */
  readonly actionTimeoutMs: number;
  /** Most characters one keyboard_type may type (default MAX_TYPED_CHARS); longer text is a ValueError. */
  readonly maxTypedChars?: number;
  /** Whether script-evaluating actions are enabled by the operator (off by default). */
  readonly allowScriptActions: boolean;
  /** The absolute path `upload_file` may read for the agent's `file`; throws an ActionError when it is not offered. */
  resolveUploadPath(file: string): string;
  /**
   * The step's deadline: every wait races it, so a deadline or a cancel stops the action, not
   * only the reply; input commands go through `deadline.command` so a page that stops taking
   * input is noticed.
   */
  readonly deadline: PageDeadline;
}
