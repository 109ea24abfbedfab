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

/** Every action BrowserGym 0.14 offers, in its documentation order. */
export const ACTIONS: readonly ActionDefinition[] = [
  noop,
  sendMsgToUser,
  reportInfeasible,
  click,
  dblclick,
  hover,
  fill,
  selectOption,
  press,
  focus,
  clear,
  dragAndDrop,
  uploadFile,
  scroll,
  scrollAt,
  mouseMove,
  mouseDown,
  mouseUp,
  mouseClick,
  mouseDblclick,
  mouseDragAndDrop,
  mouseUploadFile,
  keyboardDown,
  keyboardUp,
  keyboardPress,
  keyboardType,
  keyboardInsertText,
  goBack,
  goForward,
  goto,
  newTab,
  tabClose,
  tabFocus,
];
