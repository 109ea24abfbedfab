import type { CDPSession, Page } from 'playwright-core';
import { cdpSession } from './cdp.js';
import { captureSnapshotIndex, type SnapshotIndex } from './dom-snapshot.js';
import type { PageMarks } from './mark.js';

/** An accessibility node as BrowserGym's printer needs it; frames' trees hang under their iframe's node. */
export interface AXTreeNode {
  role: string;
  /** Undefined when Chromium gave no name at all (ignored nodes): such nodes are not printed. */
  name?: string;
  /** Undefined when the node has no value. */
  value?: unknown;
  /** Properties that carry a value, in Chromium's order. */
  properties: [string, unknown][];
  bid?: string;
  children: AXTreeNode[];
}

interface CdpAXValue {
  value?: unknown;
}

interface CdpAXNode {
  nodeId: string;
  role?: CdpAXValue;
  name?: CdpAXValue;
  value?: CdpAXValue;
  properties?: { name: string; value: CdpAXValue }[];
  childIds?: string[];
  backendDOMNodeId?: number;
}

export interface CapturedTree {
  /** The merged AX tree (null when only the snapshot was asked for). */
  root: AXTreeNode | null;
  /** Bids Chromium reports as clickable, in all frames. */
  clickable: string[];
}

/** The main frame's raw AX nodes. Bids play no part in it, so it may be fetched while marking runs. */
export type MainAXNodes = Promise<CdpAXNode[]>;

export async function fetchMainAXNodes(page: Page): MainAXNodes {
  const session = await cdpSession(page);
  return (await session.send('Accessibility.getFullAXTree', {})).nodes as CdpAXNode[];
}

/**
 * Completes the accessibility tree after marking: the DOM snapshot maps AX nodes to bids, child
 * frames' trees come from the same session by frameId, and out-of-process frames get their own
 * session. Without `mainAX` only the snapshot is taken (for the clickable flags).
 */
export async function captureTree(page: Page, marks: PageMarks, mainAX?: MainAXNodes): Promise<CapturedTree> {
  return captureTarget(await cdpSession(page), marks, mainAX);
}

async function captureTarget(
  session: CDPSession,
  marks: PageMarks,
  mainAX: MainAXNodes | undefined,
): Promise<CapturedTree> {
  const ax = mainAX !== undefined;
  const [main, index] = await Promise.all([mainAX, captureSnapshotIndex(session)]);
  const [children, remotes] = await Promise.all([
    Promise.all(
      (ax ? index.childFrames : []).map(
        ({ frameId }) => session.send('Accessibility.getFullAXTree', { frameId }).catch(() => undefined), // detached meanwhile
      ),
    ),
    Promise.all(index.remoteOwners.map((bid) => captureRemote(bid, marks, ax))),
  ]);
  const clickable = [...index.clickable, ...remotes.flatMap((r) => r?.clickable ?? [])];
  if (!main) return { root: null, clickable };
  const rootsByOwner = new Map<string, AXTreeNode>();
  index.childFrames.forEach(({ ownerBid }, i) => {
    const tree = children[i];
    if (tree) rootsByOwner.set(ownerBid, buildTree(tree.nodes as CdpAXNode[], index));
  });
  index.remoteOwners.forEach((bid, i) => {
    const root = remotes[i]?.root;
    if (root) rootsByOwner.set(bid, root);
  });
  const root = buildTree(main, index);
  for (const tree of [root, ...rootsByOwner.values()]) graftFrames(tree, rootsByOwner);
  return { root, clickable };
}

async function captureRemote(bid: string, marks: PageMarks, ax: boolean): Promise<CapturedTree | undefined> {
  const marked = marks.frames.find((f) => f.prefix === bid);
  if (!marked) return undefined;
  try {
    const session = await cdpSession(marked.frame);
    const mainAX = ax
      ? session.send('Accessibility.getFullAXTree', {}).then((tree) => tree.nodes as CdpAXNode[])
      : undefined;
    return await captureTarget(session, marks, mainAX);
  } catch {
    return undefined; // the frame went away between marking and capture
  }
}

/**
 * Turns Chromium's flat node list (root first) into a tree. InlineTextBox nodes are dropped: they
 * repeat their StaticText parent, and BrowserGym's published observations do not show them.
 */
function buildTree(nodes: CdpAXNode[], index: SnapshotIndex): AXTreeNode {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const visited = new Set<string>();
  const build = (n: CdpAXNode): AXTreeNode => {
    visited.add(n.nodeId);
    const bid = n.backendDOMNodeId === undefined ? undefined : index.bidByNode.get(n.backendDOMNodeId);
    const node: AXTreeNode = {
      role: String(n.role?.value ?? ''),
      properties: (n.properties ?? []).filter((p) => 'value' in p.value).map((p) => [p.name, p.value.value]),
      children: [],
    };
    if (n.name) node.name = String(n.name.value ?? '');
    if (n.value && 'value' in n.value) node.value = n.value.value;
    if (bid !== undefined) node.bid = bid;
    for (const id of n.childIds ?? []) {
      const child = byId.get(id);
      if (child && !visited.has(id) && child.role?.value !== 'InlineTextBox') node.children.push(build(child));
    }
    return node;
  };
  const first = nodes[0];
  return first ? build(first) : { role: 'RootWebArea', name: '', properties: [], children: [] };
}

/** Hangs each frame's tree under the AX node of the frame element that owns it. */
function graftFrames(root: AXTreeNode, rootsByOwner: Map<string, AXTreeNode>): void {
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const frameRoot = node.bid === undefined ? undefined : rootsByOwner.get(node.bid);
    if (frameRoot && !node.children.includes(frameRoot)) node.children.push(frameRoot);
    else stack.push(...node.children);
  }
}
