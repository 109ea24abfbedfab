import { describe, expect, it } from 'vitest';
import type { OracleView } from '../task.js';
import { OracleError, pyString } from '../oracle-helpers/action-text.js';
import { bookFlightOracle } from './book-flight/oracle.js';
import { chooseDateOracle } from './choose-date/oracle.js';
import { clickCheckboxesOracle } from './click-checkboxes/oracle.js';
import { emailInboxOracle } from './email-inbox/oracle.js';
import { focusTextOracle } from './focus-text/oracle.js';
import { navigateTreeOracle } from './navigate-tree/oracle.js';
import { searchEngineOracle } from './search-engine/oracle.js';
import { useAutocompleteOracle } from './use-autocomplete/oracle.js';

/** An observation shaped like the env's AXTree text (lines as printed, one tab deeper than the root). */
function view(goal: string, lines: string[], focused = ''): OracleView {
  const axtree_txt = [`RootWebArea 'Task', focused`, `\tStaticText ${pyString(goal)}`, ...lines.map((l) => `\t${l}`)];
  return { goal, axtree_txt: axtree_txt.join('\n'), pruned_html: '', url: '', focused_element_bid: focused };
}

describe('click-checkboxes', () => {
  it('unchecks an unwanted box before submitting, and submits at once for "nothing"', () => {
    const boxes = [
      `[8] checkbox 'hair', checked='true'`,
      `[11] checkbox 'hand', checked='false'`,
      `[21] button 'Submit'`,
    ];
    expect(clickCheckboxesOracle(view('Select "hand" and click Submit.', boxes))).toBe(`click('8')`);
    const none = [`[8] checkbox 'hair', checked='false'`, `[21] button 'Submit'`];
    expect(clickCheckboxesOracle(view('Select nothing and click Submit.', none))).toBe(`click('21')`);
  });
});

describe('focus-text', () => {
  it('counts text fields in page order', () => {
    const fields = [`[5] textbox ''`, `[6] textbox ''`, `[7] textbox ''`];
    expect(focusTextOracle(view('Focus into the 2nd input textbox.', fields))).toBe(`focus('6')`);
    expect(focusTextOracle(view('Focus into the textbox.', fields.slice(0, 1)))).toBe(`focus('5')`);
    expect(() => focusTextOracle(view('Focus into the 3rd input textbox.', fields.slice(0, 2)))).toThrow(OracleError);
  });
});

describe('use-autocomplete', () => {
  const goal = 'Enter an item that starts with "Ma" and ends with "awi" and press Submit.';
  const field = (value: string) => `[8] combobox 'Tags:'${value ? ` value='${value}'` : ''}, expanded=False`;

  it('types the prefix, walks the menu by keyboard, takes the fitting suggestion, submits', () => {
    expect(useAutocompleteOracle(view(goal, [field(''), `[10] button 'Submit'`]))).toBe(`fill('8', 'Ma', True)`);
    const menu = (active: number) => [
      field('Ma'),
      `[11] listbox 'Suggestions'`,
      `\t[12] option 'Madagascar', selected=${active === 0 ? 'True' : 'False'}`,
      `\t[13] option 'Malawi', selected=${active === 1 ? 'True' : 'False'}`,
      `[10] button 'Submit'`,
    ];
    expect(useAutocompleteOracle(view(goal, menu(0)))).toBe(`press('8', 'ArrowDown')`);
    expect(useAutocompleteOracle(view(goal, menu(1)))).toBe(`press('8', 'Enter')`);
    expect(useAutocompleteOracle(view(goal, [field('Malawi'), `[10] button 'Submit'`]))).toBe(`click('10')`);
  });
});

describe('choose-date', () => {
  const goal = 'Select 01/17/2021 as the date and hit Submit.';
  const calendar = (title: string) => [
    `[8] textbox 'Date:', focused`,
    `[11] group 'Calendar'`,
    `\t[12] button 'Prev'`,
    `\t[13] button 'Next'`,
    `\tStaticText ${pyString(title)}`,
    `\t[20] button '17'`,
    `[10] button 'Submit'`,
  ];

  it('opens the calendar, pages towards the month in either direction, clicks the day, submits', () => {
    expect(chooseDateOracle(view(goal, [`[8] textbox 'Date:'`, `[10] button 'Submit'`]))).toBe(`click('8')`);
    expect(chooseDateOracle(view(goal, calendar('March 2021')))).toBe(`click('12')`);
    expect(chooseDateOracle(view(goal, calendar('December 2020')))).toBe(`click('13')`);
    expect(chooseDateOracle(view(goal, calendar('January 2021')))).toBe(`click('20')`);
    const picked = [`[8] textbox 'Date:' value='01/17/2021'`, `[10] button 'Submit'`];
    expect(chooseDateOracle(view(goal, picked))).toBe(`click('10')`);
  });
});

describe('navigate-tree', () => {
  const goal = 'Navigate through the file tree. Find and click on the folder or file named "Dario".';

  it('opens the first closed folder until the item shows, then clicks it', () => {
    const tree = [
      `[5] tree 'Files'`,
      `\t[10] treeitem 'Mina', expanded=True, selected=False`,
      `\t[12] treeitem 'Aaron', selected=False`,
      `\t[14] treeitem 'Joel', expanded=False, selected=False`,
    ];
    expect(navigateTreeOracle(view(goal, tree))).toBe(`click('14')`);
    expect(navigateTreeOracle(view(goal, [...tree, `\t[16] treeitem 'Dario', selected=False`]))).toBe(`click('16')`);
    expect(() => navigateTreeOracle(view(goal, tree.slice(0, 3)))).toThrow(/every folder is open/);
  });
});

describe('search-engine', () => {
  const goal = 'Use the textbox to enter "Mina" and press "Search", then find and click the 4th search result.';

  it('fills the query, presses Enter, pages to the result and clicks it', () => {
    expect(searchEngineOracle(view(goal, [`[6] textbox 'Search'`, `[7] button 'Search'`]))).toBe(`fill('6', 'Mina')`);
    const typed = `[6] textbox 'Search' value='Mina', focused`;
    expect(searchEngineOracle(view(goal, [typed, `[7] button 'Search'`]))).toBe(`press('6', 'Enter')`);
    const page1 = [typed, `[10] link 'Pear wind'`, `[14] link 'Gate sage'`, `[18] link 'Tree king'`, `[23] link '2'`];
    expect(searchEngineOracle(view(goal, page1))).toBe(`click('23')`);
    expect(searchEngineOracle(view(goal, [typed, `[25] link 'Hook meal'`, `[29] link '1'`]))).toBe(`click('25')`);
  });
});

describe('email-inbox', () => {
  const inbox = [`[7] link 'Nadia Band lane'`, `[9] link 'Hugo Baby rice'`];
  const opened = (from: string) => [
    `[14] button 'Back'`,
    `[15] button 'Reply'`,
    `[16] button 'Forward'`,
    `[18] button 'Star'`,
    `[19] button 'Delete'`,
    `StaticText 'From: ${from}'`,
  ];

  it('opens the sender’s email, backs out of another one, and acts', () => {
    const star = 'Find the email by Hugo and click the Star button to mark it as important.';
    expect(emailInboxOracle(view(star, inbox))).toBe(`click('9')`);
    expect(emailInboxOracle(view(star, opened('Nadia')))).toBe(`click('14')`);
    expect(emailInboxOracle(view(star, opened('Hugo')))).toBe(`click('18')`);
  });

  it('replies and forwards through the compose view', () => {
    const reply = 'Find the email by Hugo and reply to them with the text "oak leaf".';
    expect(emailInboxOracle(view(reply, opened('Hugo')))).toBe(`click('15')`);
    const compose = (to: string, message: string) => [
      `[20] button 'Cancel'`,
      `[21] button 'Send'`,
      `[23] textbox 'To:' value='${to}'`,
      `[25] textbox 'Message'${message ? ` value='${message}'` : ''}`,
    ];
    expect(emailInboxOracle(view(reply, compose('Hugo', '')))).toBe(`fill('25', 'oak leaf')`);
    expect(emailInboxOracle(view(reply, compose('Hugo', 'oak leaf')))).toBe(`click('21')`);
    const forward = 'Find the email by Hugo and forward that email to Rosa.';
    expect(emailInboxOracle(view(forward, compose('', 'body')))).toBe(`fill('23', 'Rosa')`);
    expect(emailInboxOracle(view(forward, compose('Rosa', 'body')))).toBe(`click('21')`);
  });
});

describe('book-flight', () => {
  const goal = 'Book the shortest one-way flight from "Boston" to "Denver" on "03/14/2019".';

  it('fills the form one field at a time, then searches', () => {
    const form = (from: string, to: string, date: string) => [
      `[5] combobox 'From' value='${from}'`,
      `[6] combobox 'To' value='${to}'`,
      `[7] textbox 'Departure date'${date ? ` value='${date}'` : ''}`,
      `[8] button 'Search'`,
    ];
    expect(bookFlightOracle(view(goal, form('Choose a city', 'Choose a city', '')))).toBe(
      `select_option('5', 'Boston')`,
    );
    expect(bookFlightOracle(view(goal, form('Boston', 'Choose a city', '')))).toBe(`select_option('6', 'Denver')`);
    expect(bookFlightOracle(view(goal, form('Boston', 'Denver', '')))).toBe(`fill('7', '03/14/2019')`);
    expect(bookFlightOracle(view(goal, form('Boston', 'Denver', '03/14/2019')))).toBe(`click('8')`);
  });

  it('books the offer with the shortest duration, or the cheapest price', () => {
    const offers = [
      `StaticText 'Duration: 3h 5m'`,
      `[20] button 'Book flight for $120'`,
      `StaticText 'Duration: 1h 55m'`,
      `[24] button 'Book flight for $300'`,
    ];
    expect(bookFlightOracle(view(goal, offers))).toBe(`click('24')`);
    expect(bookFlightOracle(view(goal.replace('shortest', 'cheapest'), offers))).toBe(`click('20')`);
  });
});
