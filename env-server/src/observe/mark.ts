import type { Frame, Page } from 'playwright-core';
import type { ElementProperties } from '@gauntlet/proto';
import { BID_ATTRIBUTE, parseBid } from './bid.js';
import { runFramePass } from './frame-pass.js';
import { clearBidsInPage, type MarkFrameArgs, type MarkFrameResult } from './mark-in-page.js';

export interface MarkedFrame {
  frame: Frame;
  /** Bid prefix of the frame's elements; '' for the main frame, else the bid of its frame element. */
  prefix: string;
}

export interface PageMarks {
  /** Every frame that got marked, depth-first in document order (main frame first, parents before children). */
  frames: MarkedFrame[];
  /** extra_element_properties; empty when marking was asked to skip them. */
  properties: Record<string, ElementProperties>;
  /** Bid of the deep active element through frames and open shadow roots; '' when none. */
  focusedBid: string;
  /** The main frame's document title. */
  title: string;
  /** Each frame's pruned HTML by prefix (placeholders for child frames), when marking was asked for it. */
  htmlByPrefix: Map<string, string> | null;
}

export interface MarkOptions {
  /** Measure boxes, visibility, clickability (default true). Bids and focus are always computed. */
  properties?: boolean;
  /** Serialize each frame's pruned HTML in the same evaluate (default false); see `prunedHtml`. */
  html?: boolean;
}

interface MarkedTree {
  frame: Frame;
  prefix: string;
  result: MarkFrameResult;
  html: string | null;
  children: MarkedTree[];
}

/**
 * Gives every element of every frame a bid (one evaluate per frame, parents first so a child
 * frame knows its prefix and where it sits on the page) and collects the element properties.
 * A child frame that detaches or navigates meanwhile is left out; the next observation marks it.
 */
export async function markPage(page: Page, options: MarkOptions = {}): Promise<PageMarks> {
  const properties = options.properties ?? true;
  const html = options.html ?? false;
  const top: MarkFrameArgs = { prefix: '', depth: 0, offset: [0, 0], clip: null, parentSlots: [], properties };
  const root = await markFrame(page.mainFrame(), top, html);
  if (!root) throw new Error('the main frame could not be marked'); // unreachable: its prefix is given
  const marks: PageMarks = {
    frames: [],
    properties: {},
    focusedBid: '',
    title: root.result.title,
    htmlByPrefix: html ? new Map() : null,
  };
  const focusByPrefix = new Map<string, string | null>();
  const flatten = (node: MarkedTree): void => {
    marks.frames.push({ frame: node.frame, prefix: node.prefix });
    Object.assign(marks.properties, node.result.properties);
    focusByPrefix.set(node.prefix, node.result.focused);
    if (node.html !== null) marks.htmlByPrefix?.set(node.prefix, node.html);
    node.children.forEach(flatten);
  };
  flatten(root);
  marks.focusedBid = deepFocus(focusByPrefix);
  return marks;
}

async function markFrame(frame: Frame, args: MarkFrameArgs, html: boolean): Promise<MarkedTree | undefined> {
  let pass = await runFramePass(frame, args, html);
  if (pass.mark.prefix === null) {
    // Cross-origin: the frame cannot see its own element, so ask the parent side for its bid.
    const bid = await frameElementBid(frame);
    const slot = args.parentSlots.find((s) => s.bid === bid);
    if (!slot) return undefined; // its element appeared after the parent was marked
    pass = await runFramePass(frame, { ...args, prefix: slot.bid, offset: slot.offset, clip: slot.clip }, html);
  }
  const result = pass.mark;
  const childArgs: MarkFrameArgs = { ...args, prefix: null, depth: args.depth + 1, parentSlots: result.frames };
  const found = await Promise.all(
    frame.childFrames().map((child) => markFrame(child, childArgs, html).catch(() => undefined)), // detached or navigating
  );
  const order = (tree: MarkedTree) => result.frames.findIndex((s) => s.bid === tree.prefix);
  const children = found.filter((c) => c !== undefined).sort((a, b) => order(a) - order(b));
  return { frame, prefix: result.prefix ?? '', result, html: pass.html, children };
}

/** The bid its parent document gave this frame's element (null when it has none yet). */
export async function frameElementBid(frame: Frame): Promise<string | null> {
  const element = await frame.frameElement();
  try {
    return await element.getAttribute(BID_ATTRIBUTE);
  } finally {
    element.dispose().catch(() => undefined);
  }
}

/** Follows focus into frames: an iframe that holds focus hands over to its own active element. */
function deepFocus(focusByPrefix: Map<string, string | null>): string {
  let focused = focusByPrefix.get('') ?? null;
  while (focused !== null && parseBid(focused)?.isFrame && focusByPrefix.has(focused)) {
    const inner = focusByPrefix.get(focused) ?? null;
    if (inner === null) break;
    focused = inner;
  }
  return focused ?? '';
}

/**
 * Forgets all bids and counters in every frame, so that re-rendering the same content (a task
 * reset with the same seed) yields the same bids as a fresh page.
 */
export async function resetBidCounters(page: Page): Promise<void> {
  await page.mainFrame().evaluate(clearBidsInPage);
  await Promise.all(
    page
      .frames()
      .filter((f) => f !== page.mainFrame())
      .map((frame) => frame.evaluate(clearBidsInPage).catch(() => undefined)),
  );
}
