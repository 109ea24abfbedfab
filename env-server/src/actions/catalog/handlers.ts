import { BID_INPUT_HANDLERS } from './bid-input.js';
import { BID_POINTER_HANDLERS } from './bid-pointer.js';
import { CHAT_HANDLERS } from './chat.js';
import { COORD_HANDLERS } from './coord.js';
import type { ActionHandler } from './handler.js';
import { KEYBOARD_HANDLERS } from './keyboard.js';
import { NAV_HANDLERS } from './nav.js';
import { UPLOAD_HANDLERS } from './upload.js';

export type { ActionHandler, HandlerTable, Params } from './handler.js';

/** Every BrowserGym action this executor runs, by name. Which ones an episode may use is the binder's business. */
export const HANDLERS: ReadonlyMap<string, ActionHandler> = new Map(
  Object.entries({
    ...CHAT_HANDLERS,
    ...BID_POINTER_HANDLERS,
    ...BID_INPUT_HANDLERS,
    ...UPLOAD_HANDLERS,
    ...COORD_HANDLERS,
    ...KEYBOARD_HANDLERS,
    ...NAV_HANDLERS,
  }),
);
