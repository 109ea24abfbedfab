import { describe, expect, it } from 'vitest';
import { outsideNavigation, type NavigationHistory } from './outside-navigation.js';

const entry = (id: number, transitionType = 'link') => ({ id, url: `http://site/${id}`, transitionType });
const history = (currentIndex: number, ...entries: ReturnType<typeof entry>[]): NavigationHistory => ({
  currentIndex,
  entries,
});

describe('outsideNavigation', () => {
  it('a new entry from the address bar or a bookmark is goto(url); one a link or form made is nothing', () => {
    const start = history(0, entry(1, 'typed'));
    expect(outsideNavigation(start, history(1, entry(1, 'typed'), entry(2, 'typed')))).toEqual([
      "goto('http://site/2')",
    ]);
    expect(outsideNavigation(start, history(1, entry(1), entry(2, 'auto_bookmark')))).toEqual([
      "goto('http://site/2')",
    ]);
    expect(outsideNavigation(start, history(1, entry(1), entry(2, 'link')))).toEqual([]);
    expect(outsideNavigation(start, history(1, entry(1), entry(2, 'form_submit')))).toEqual([]);
  });

  it('a move to a known entry is one go_back or go_forward per entry crossed', () => {
    const three = [entry(1), entry(2), entry(3)];
    expect(outsideNavigation(history(2, ...three), history(1, ...three))).toEqual(['go_back()']);
    expect(outsideNavigation(history(1, ...three), history(2, ...three))).toEqual(['go_forward()']);
    expect(outsideNavigation(history(2, ...three), history(0, ...three))).toEqual(['go_back()', 'go_back()']);
  });

  it('the same entry (a reload, a look after the env’s own step) is nothing', () => {
    const one = history(0, entry(1, 'typed'));
    expect(outsideNavigation(one, history(0, { ...entry(1), transitionType: 'reload' }))).toEqual([]);
    expect(outsideNavigation(history(0), one)).toEqual([]);
  });
});
