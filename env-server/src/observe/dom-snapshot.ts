import type { CDPSession } from 'playwright-core';
import { BID_ATTRIBUTE } from './bid.js';

/** What one `DOMSnapshot.captureSnapshot` tells us about the documents of one CDP target. */
export interface SnapshotIndex {
  /** backendNodeId → bid, across every document of the target (AX nodes point at these ids). */
  bidByNode: Map<number, string>;
  /** Bids Chromium says respond to clicks, JS listeners included (which no in-page check can see). */
  clickable: string[];
  /** Child documents rendered by this target, with the bid of the frame element that owns each. */
  childFrames: { frameId: string; ownerBid: string }[];
  /** Bids of frame elements whose document lives in another process (out-of-process iframes). */
  remoteOwners: string[];
}

interface RareIntegers {
  index: number[];
  value: number[];
}

interface DocumentSnapshot {
  frameId: number;
  nodes: {
    nodeName?: number[];
    backendNodeId?: number[];
    attributes?: number[][];
    contentDocumentIndex?: RareIntegers;
    isClickable?: { index: number[] };
  };
}

/**
 * Reads bids for every node id in one stateless call (no DOM agent state, unlike DOM.getDocument).
 * It is cheaper than BrowserGym's trick of writing bids into aria-roledescription and reading them
 * back from the AX tree, which costs two extra evaluates and an accessibility update per element.
 */
export async function captureSnapshotIndex(session: CDPSession): Promise<SnapshotIndex> {
  const { documents, strings } = (await session.send('DOMSnapshot.captureSnapshot', { computedStyles: [] })) as {
    documents: DocumentSnapshot[];
    strings: string[];
  };
  const bidName = strings.indexOf(BID_ATTRIBUTE);
  const index: SnapshotIndex = { bidByNode: new Map(), clickable: [], childFrames: [], remoteOwners: [] };
  for (const doc of documents) {
    const { backendNodeId = [], attributes = [], nodeName = [] } = doc.nodes;
    const bids: (string | undefined)[] = attributes.map((pairs) => {
      for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === bidName) return strings[pairs[i + 1] as number];
      return undefined;
    });
    bids.forEach((bid, node) => bid !== undefined && index.bidByNode.set(backendNodeId[node] as number, bid));
    for (const node of doc.nodes.isClickable?.index ?? []) {
      const bid = bids[node];
      if (bid !== undefined) index.clickable.push(bid);
    }
    const owners = doc.nodes.contentDocumentIndex ?? { index: [], value: [] };
    owners.index.forEach((node, i) => {
      const ownerBid = bids[node];
      const child = documents[owners.value[i] as number];
      if (ownerBid !== undefined && child)
        index.childFrames.push({ frameId: strings[child.frameId] as string, ownerBid });
    });
    const local = new Set(owners.index);
    bids.forEach((bid, node) => {
      const tag = strings[nodeName[node] as number];
      if (bid !== undefined && !local.has(node) && (tag === 'IFRAME' || tag === 'FRAME')) index.remoteOwners.push(bid);
    });
  }
  return index;
}
