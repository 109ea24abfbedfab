import type { ActionContext } from '../context.js';
import { defineAction } from './define.js';
import { keys, text } from './params.js';
import { str } from './read-params.js';
import { ActionError } from '../types.js';

/**
 * Characters typed per keyboard command. Playwright types a character in a few milliseconds and
 * cannot be stopped mid-call, so long text goes in chunks with a deadline check between them: a
 * step past its deadline stops typing within one chunk instead of finishing 8,000 characters.
 */
export const TYPE_CHUNK_CHARS = 32;

/**
 * Characters one keyboard_type may type (`--max-typed-chars`): each is four input events and a
 * few milliseconds, so 4,096 take about 10 s. Longer text is what keyboard_insert_text or fill
 * are for.
 */
export const MAX_TYPED_CHARS = 4_096;

async function typeInChunks(ctx: ActionContext, text: string): Promise<void> {
  const { keyboard } = ctx.activePage();
  // Whole code points, so a chunk never ends inside a surrogate pair.
  const chars = [...text];
  const limit = ctx.maxTypedChars ?? MAX_TYPED_CHARS;
  if (chars.length > limit)
    throw new ActionError(
      'ValueError',
      `keyboard_type() types at most ${limit} characters, got ${chars.length}; keyboard_insert_text or fill take longer text`,
    );
  for (let start = 0; start < chars.length; start += TYPE_CHUNK_CHARS) {
    await ctx.deadline.command(keyboard.type(chars.slice(start, start + TYPE_CHUNK_CHARS).join('')));
  }
}

/*
 * Keyboard actions go to whatever has focus on the active page. Key names are Playwright's
 * (`Backspace`, `ArrowDown`, `ControlOrMeta+a`); an unknown name fails with Playwright's message.
 */

export const keyboardDown = defineAction({
  name: 'keyboard_down',
  subsets: 'coord',
  params: [keys('key')],
  description: 'Press and hold a key.',
  examples: ["keyboard_down('Shift')", "keyboard_down('c')"],
  touchesPage: true,
  run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.down(str(params, 'key'))),
});

export const keyboardUp = defineAction({
  name: 'keyboard_up',
  subsets: 'coord',
  params: [keys('key')],
  description: 'Release a held key.',
  examples: ["keyboard_up('Shift')"],
  touchesPage: true,
  run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.up(str(params, 'key'))),
});

export const keyboardPress = defineAction({
  name: 'keyboard_press',
  subsets: 'coord',
  params: [keys('key')],
  description: 'Press a key or key combination on the focused element.',
  examples: ["keyboard_press('Backspace')", "keyboard_press('ControlOrMeta+a')"],
  touchesPage: true,
  run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.press(str(params, 'key'))),
});

export const keyboardType = defineAction({
  name: 'keyboard_type',
  subsets: 'coord',
  params: [text('text')],
  description: 'Type text into the focused element, one key event per character.',
  examples: ["keyboard_type('Hello world!')"],
  touchesPage: true,
  // One keydown/keypress/input/keyup per character, as a user typing.
  run: (params, ctx) => typeInChunks(ctx, str(params, 'text')),
});

export const keyboardInsertText = defineAction({
  name: 'keyboard_insert_text',
  subsets: 'coord',
  params: [text('text')],
  description: 'Insert text into the focused element at once, without key events.',
  examples: ["keyboard_insert_text('Hello world!')"],
  touchesPage: true,
  // Text inserted as by an IME: an input event, no key events.
  run: (params, ctx) => ctx.deadline.command(ctx.activePage().keyboard.insertText(str(params, 'text'))),
});
