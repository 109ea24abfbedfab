import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HistoryWatch, outsideNavigation, type NavigationHistory } from './outside-navigation.js';

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

  it('counts back/forward where the entries stand now, even when the oldest were dropped', () => {
    // Chromium keeps a bounded history: entry 1 fell off the front while the person went back.
    const before = history(2, entry(1), entry(2), entry(3));
    expect(outsideNavigation(before, history(0, entry(2), entry(3), entry(4)))).toEqual(['go_back()']);
  });

  it('an entry a page replaced (location.replace) is nothing; one the browser replaced it with is goto', () => {
    const before = history(1, entry(1, 'typed'), entry(2));
    expect(outsideNavigation(before, history(1, entry(1, 'typed'), entry(5)))).toEqual([]);
    expect(outsideNavigation(before, history(1, entry(1, 'typed'), entry(5, 'typed')))).toEqual([
      "goto('http://site/5')",
    ]);
  });
});

/**
 * A page whose browser-side history reads from `reads` in turn (the last one for good) and whose
 * main frame shows `url()`: by default the current entry of the last read, i.e. in step.
 */
function watched(reads: NavigationHistory[], url?: () => string, failures = 0) {
  let asked = 0;
  let detached = 0;
  let sessions = 0;
  let shown = '';
  const cdp = {
    send: async () => {
      asked++;
      if (failures-- > 0) throw new Error('Target closed');
      const read = reads.length > 1 ? reads.shift()! : reads[0]!;
      shown = read.entries[read.currentIndex]!.url;
      return read;
    },
    detach: async () => void detached++,
  };
  const newCDPSession = async () => (sessions++, cdp);
  const page = { url: url ?? (() => shown), context: () => ({ newCDPSession }) } as unknown as Page;
  return { page, asked: () => asked, detached: () => detached, sessions: () => sessions };
}

describe('HistoryWatch', () => {
  it('waits for the browser history to show the page the frame navigated to before it compares', async () => {
    const start = history(0, entry(1, 'typed'));
    const typed = history(1, entry(1, 'typed'), entry(2, 'typed'));
    let url = 'http://site/1';
    // The frame reports the typed page while the history still reads the old entry three times.
    const { page, asked, detached } = watched([start, start, start, start, typed], () => url);
    const watch = await HistoryWatch.open(page);
    url = 'http://site/2';
    expect(await watch.changes()).toEqual(["goto('http://site/2')"]);
    expect(asked()).toBe(5);
    expect(await watch.changes()).toEqual([]);
    await watch.close();
    expect(detached()).toBe(1);
  });

  it('looks one at a time, each against the one before it, in the order they were asked for', async () => {
    const start = history(0, entry(1, 'typed'));
    const typed = history(1, entry(1, 'typed'), entry(2, 'typed'));
    const back = history(0, entry(1, 'typed'), entry(2, 'typed'));
    const watch = await HistoryWatch.open(watched([start, typed, back]).page);
    // Asked together (two framenavigated in a row): compared concurrently, the second would
    // measure from `start` too and see no move.
    expect(await Promise.all([watch.changes(), watch.changes()])).toEqual([["goto('http://site/2')"], ['go_back()']]);
  });

  it('a read that fails is tried again on a fresh CDP session; the old one is let go', async () => {
    const start = history(0, entry(1, 'typed'));
    const typed = history(1, entry(1, 'typed'), entry(2, 'typed'));
    const { page, sessions, detached } = watched([start, typed], undefined, 2);
    const watch = await HistoryWatch.open(page);
    expect([sessions(), detached()]).toEqual([3, 2]);
    expect(await watch.changes()).toEqual(["goto('http://site/2')"]);
    await watch.close();
    expect(detached()).toBe(3);
  });
});
