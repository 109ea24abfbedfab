import type { OracleView } from '../../src/tasks/task.js';
import { parseAxtree, type AxNode } from '../../src/tasks/oracle-helpers/axtree-lines.js';
import {
  act,
  find,
  findAll,
  fromGoal,
  hasState,
  mustFind,
  quotedInGoal,
  quotedValues,
  showsSecret,
} from '../../src/tasks/miniwob/oracle.js';
import { chooseDateOracle } from '../../src/tasks/miniwob/choose-date/oracle.js';
import { bookFlightOracle } from '../../src/tasks/miniwob/book-flight/oracle.js';
import { searchEngineOracle } from '../../src/tasks/miniwob/search-engine/oracle.js';

/**
 * Policies that play a task to a losing end: a plausible mistake an agent makes, then the move
 * that ends the episode. `null` means this page offers no losing move (e.g. focus-text with one
 * field), so the test tries another seed.
 */
export type WrongPolicy = (view: OracleView) => string | null;

const nodesOf = (view: OracleView) => parseAxtree(view.axtree_txt);
const button = (nodes: AxNode[], label: string) => mustFind(nodes, 'button', (name) => name === label);

export const WRONG_MOVES: Record<string, WrongPolicy> = {
  'choose-list': (view) => {
    const nodes = nodesOf(view);
    const list = mustFind(nodes, 'combobox', () => true);
    const target = quotedInGoal(view.goal, 0);
    if (list.value !== target) return act.click(button(nodes, 'Submit'));
    return act.select(list, mustFind(nodes, 'option', (name) => name !== target).name);
  },
  'click-checkboxes': (view) => {
    const nodes = nodesOf(view);
    const boxes = findAll(nodes, 'checkbox');
    // Wanted boxes: submit with none checked. Nothing wanted: check one first.
    if (quotedValues(view.goal).length === 0 && !boxes.some((box) => hasState(box, 'checked')))
      return act.click(boxes[0]!);
    return act.click(button(nodes, 'Submit'));
  },
  'click-option': (view) => act.click(button(nodesOf(view), 'Submit')),
  'click-tab': (view) => {
    const wanted = fromGoal(view.goal, /(Tab #\d+)/);
    return act.click(mustFind(nodesOf(view), 'tab', (name) => name !== wanted));
  },
  'click-dialog': (view) => {
    const other = find(nodesOf(view), 'button', (name) => name === 'OK' || name === 'Cancel');
    return other ? act.click(other) : null;
  },
  'enter-password': (view) => {
    const password = quotedInGoal(view.goal, 0);
    const nodes = nodesOf(view);
    const first = mustFind(nodes, 'textbox', (name) => name === 'Password');
    if (!showsSecret(first.value, password)) return act.fill(first, password);
    const again = mustFind(nodes, 'textbox', (name) => name === 'Verify password');
    if (!again.value) return act.fill(again, `${password}x`);
    return act.click(button(nodes, 'Submit'));
  },
  'enter-text-dynamic': (view) => {
    const nodes = nodesOf(view);
    const field = mustFind(nodes, 'textbox', () => true);
    if (!field.value) return act.fill(field, quotedInGoal(view.goal, 0).slice(1));
    return act.click(button(nodes, 'Submit'));
  },
  'focus-text': (view) => {
    const fields = findAll(nodesOf(view), 'textbox');
    const wanted = Number(/the (\d)(?:st|nd|rd|th)/.exec(view.goal)?.[1] ?? 1);
    const other = fields.find((_, i) => i !== wanted - 1);
    return other ? act.focus(other) : null;
  },
  'use-autocomplete': (view) => {
    // Types the prefix, closes the suggestions (they cover Submit) and submits the bare prefix.
    const nodes = nodesOf(view);
    const field = mustFind(nodes, 'combobox', () => true);
    const prefix = quotedInGoal(view.goal, 0);
    if (field.value !== prefix) return act.fill(field, prefix);
    if (find(nodes, 'option')) return act.press(field, 'Escape');
    return act.click(button(nodes, 'Submit'));
  },
  'choose-date': (view) => {
    // Plays the oracle up to the right month, then picks the wrong day.
    const nodes = nodesOf(view);
    const field = mustFind(nodes, 'textbox', (name) => name.startsWith('Date'));
    if (field.value) return act.click(button(nodes, 'Submit'));
    const next = chooseDateOracle(view);
    const day = Number(fromGoal(view.goal, /^Select \d\d\/(\d\d)\//));
    const dayButton = find(nodes, 'button', (name) => name === String(day));
    if (dayButton && next === act.click(dayButton)) return act.click(button(nodes, day === 1 ? '2' : '1'));
    return next;
  },
  'navigate-tree': (view) => {
    const wanted = quotedInGoal(view.goal, 0);
    const items = findAll(nodesOf(view), 'treeitem');
    const file = items.find((item) => !item.props.has('expanded') && item.name !== wanted);
    if (file) return act.click(file);
    const closed = items.find((item) => item.props.has('expanded') && !hasState(item, 'expanded'));
    return closed ? act.click(closed) : null;
  },
  'search-engine': (view) => {
    // Plays the oracle, but on the results page clicks a result other than the wanted one.
    const nodes = nodesOf(view);
    const results = findAll(nodes, 'link', (name) => !/^\d+$/.test(name));
    if (results.length === 0) return searchEngineOracle(view);
    const right = searchEngineOracle(view);
    return act.click(results.find((result) => act.click(result) !== right)!);
  },
  'email-inbox': (view) => {
    // Opens another sender's email and deletes it.
    const sender = fromGoal(view.goal, /by (\S+) and/);
    const nodes = nodesOf(view);
    if (find(nodes, 'button', (name) => name === 'Delete')) return act.click(button(nodes, 'Delete'));
    return act.click(mustFind(nodes, 'link', (name) => !name.startsWith(`${sender} `)));
  },
  'book-flight': (view) => {
    // Fills the form like the oracle, then books an offer other than the answer.
    const nodes = nodesOf(view);
    const books = findAll(nodes, 'button', (name) => name.startsWith('Book flight for'));
    if (books.length === 0) return bookFlightOracle(view);
    const right = bookFlightOracle(view);
    return act.click(books.find((book) => act.click(book) !== right)!);
  },
};
