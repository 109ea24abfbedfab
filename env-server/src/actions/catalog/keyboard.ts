import type { ActionContext } from '../context.js';
import type { HandlerTable } from './handler.js';
import { str } from './read-params.js';

/**
 * Characters typed per keyboard command. Playwright types a character in a few milliseconds and
 * cannot be stopped mid-call, so long text goes in chunks with a deadline check between them: a
 * step past its deadline stops typing within one chunk instead of finishing 8,000 characters.
 */
export const TYPE_CHUNK_CHARS = 32;

async function typeInChunks(ctx: ActionContext, text: string): Promise<void> {
  const { keyboard } = ctx.activePage();
  // Whole code points, so a chunk never ends inside a surrogate pair.
  const chars = [...text];
  for (let start = 0; start < chars.length; start += TYPE_CHUNK_CHARS) {
    await ctx.deadline.command(keyboard.type(chars.slice(start, start + TYPE_CHUNK_CHARS).join('')));
  }
}

/**
 * Keyboard actions go to whatever has focus on the active page. Key names are Playwright's
 * (`Backspace`, `ArrowDown`, `ControlOrMeta+a`); an unknown name fails with Playwright's message.
 */
export const KEYBOARD_HANDLERS: HandlerTable = {
  keyboard_down: { touchesPage: true, run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.down(str(params, 'key'))) },
  keyboard_up: { touchesPage: true, run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.up(str(params, 'key'))) },
  keyboard_press: { touchesPage: true, run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.press(str(params, 'key'))) },
  // One keydown/keypress/input/keyup per character, as a user typing.
  keyboard_type: { touchesPage: true, run: (params, ctx) => typeInChunks(ctx, str(params, 'text')) },
  // Text inserted as by an IME: an input event, no key events.
  keyboard_insert_text: { touchesPage: true, run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.insertText(str(params, 'text'))) },
};
