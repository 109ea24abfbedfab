/**
 * Bid grammar. An element's bid is its document's frame prefix followed by a decimal counter
 * ('12', 'a12', 'aA12'); a frame element's bid is its parent's prefix plus one letter segment
 * ('a', 'aA') and is the prefix of everything inside that frame. Segments alternate case with
 * depth (top-level frames lowercase, their children uppercase, ...) so a prefix splits into
 * frames without a separator, and each depth counts 'a'..'z', 'aa', 'ab', ... (bijective base 26)
 * so there is no limit on frames per document. Numbers count from 0 per document, as BrowserGym's
 * do (the html element is 0, body 1 on a plain page); head contents are not numbered.
 */

export const BID_ATTRIBUTE = 'bid';

export interface ParsedBid {
  /** Bids of the frame elements to enter, outermost first: 'aA12' → ['a', 'aA']; '12' → []. */
  framePath: string[];
  /** True when the bid names a frame element itself ('aA' is the iframe in frame 'a'). */
  isFrame: boolean;
}

// Bids come from agents, so every pattern here is linear: no quantifier nests inside another.
const BID_SHAPE = /^([a-zA-Z]*)(\d*)$/;
const SEGMENT = /[a-z]+|[A-Z]+/g;
/** Far beyond any bid a page can get (a frame chain 60 deep), so longer strings are refused unread. */
export const MAX_BID_LENGTH = 256;

/** Splits a bid into the frame chain that holds it; null when it is not a bid we could have made. */
export function parseBid(bid: string): ParsedBid | null {
  if (bid === '' || bid.length > MAX_BID_LENGTH) return null;
  const shape = BID_SHAPE.exec(bid);
  if (!shape) return null;
  const letters = shape[1] ?? '';
  const digits = shape[2] ?? '';
  if (digits.length > 1 && digits.startsWith('0')) return null;
  const prefixes: string[] = [];
  let end = 0;
  for (const segment of letters.match(SEGMENT) ?? []) {
    const lower = segment === segment.toLowerCase();
    if (lower !== (prefixes.length % 2 === 0)) return null;
    end += segment.length;
    prefixes.push(letters.slice(0, end));
  }
  if (digits === '') return { framePath: prefixes.slice(0, -1), isFrame: true };
  return { framePath: prefixes, isFrame: false };
}

/** The letter segment for the `index`-th frame (0-based) of a document whose prefix has `depth` segments. */
export function frameSegment(index: number, depth: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    n -= 1;
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  }
  return depth % 2 === 0 ? out : out.toUpperCase();
}

/** Number of frame segments in a prefix ('' → 0, 'aA' → 2): the depth of the document it names. */
export function prefixDepth(prefix: string): number {
  return prefix.match(SEGMENT)?.length ?? 0;
}
