import { ACTION_NAMES, type ActionName } from '@gauntlet/proto/agent';
import { clear, fill, focus, press, selectOption } from './bid-input.js';
import { click, dblclick, dragAndDrop, hover } from './bid-pointer.js';
import { noop, reportInfeasible, sendMsgToUser } from './chat.js';
import {
  mouseClick,
  mouseDblclick,
  mouseDown,
  mouseDragAndDrop,
  mouseMove,
  mouseUp,
  scroll,
  scrollAt,
} from './coord.js';
import type { ActionDefinition } from './define.js';
import { keyboardDown, keyboardInsertText, keyboardPress, keyboardType, keyboardUp } from './keyboard.js';
import { goBack, goForward, goto, newTab, tabClose, tabFocus } from './nav.js';
import { mouseUploadFile, uploadFile } from './upload.js';

/**
 * Every action BrowserGym 0.14 offers, by name. The names, and their order, are proto's
 * ACTION_NAMES (what an agent may emit): the compiler refuses a catalog that misses a name, adds
 * one, or files an action under another's name.
 */
export type ActionCatalog = { readonly [N in ActionName]: ActionDefinition & { readonly name: N } };

export const CATALOG: ActionCatalog = {
  noop,
  send_msg_to_user: sendMsgToUser,
  report_infeasible: reportInfeasible,
  click,
  dblclick,
  hover,
  fill,
  select_option: selectOption,
  press,
  focus,
  clear,
  drag_and_drop: dragAndDrop,
  upload_file: uploadFile,
  scroll,
  scroll_at: scrollAt,
  mouse_move: mouseMove,
  mouse_down: mouseDown,
  mouse_up: mouseUp,
  mouse_click: mouseClick,
  mouse_dblclick: mouseDblclick,
  mouse_drag_and_drop: mouseDragAndDrop,
  mouse_upload_file: mouseUploadFile,
  keyboard_down: keyboardDown,
  keyboard_up: keyboardUp,
  keyboard_press: keyboardPress,
  keyboard_type: keyboardType,
  keyboard_insert_text: keyboardInsertText,
  go_back: goBack,
  go_forward: goForward,
  goto,
  new_tab: newTab,
  tab_close: tabClose,
  tab_focus: tabFocus,
};

/** The catalog in BrowserGym's documentation order (ACTION_NAMES'). */
export const ACTIONS: readonly ActionDefinition[] = ACTION_NAMES.map((name) => CATALOG[name]);
