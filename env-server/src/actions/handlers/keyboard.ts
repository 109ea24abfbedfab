import type { HandlerTable } from './handler.js';
import { str } from './params.js';

/**
 * Keyboard actions go to whatever has focus on the active page. Key names are Playwright's
 * (`Backspace`, `ArrowDown`, `ControlOrMeta+a`); an unknown name fails with Playwright's message.
 */
export const KEYBOARD_HANDLERS: HandlerTable = {
  keyboard_down: { touchesPage: true, run: (params, ctx) => ctx.activePage().keyboard.down(str(params, 'key')) },
  keyboard_up: { touchesPage: true, run: (params, ctx) => ctx.activePage().keyboard.up(str(params, 'key')) },
  keyboard_press: { touchesPage: true, run: (params, ctx) => ctx.activePage().keyboard.press(str(params, 'key')) },
  // One keydown/keypress/input/keyup per character, as a user typing.
  keyboard_type: { touchesPage: true, run: (params, ctx) => ctx.activePage().keyboard.type(str(params, 'text')) },
  // Text inserted as by an IME: an input event, no key events.
  keyboard_insert_text: { touchesPage: true, run: (params, ctx) => ctx.activePage().keyboard.insertText(str(params, 'text')) },
};
