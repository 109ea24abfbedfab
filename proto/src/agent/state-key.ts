import { createHash } from 'node:crypto';

/** renderObservation's section that says how the agent got here, not where it is. */
const LAST_ACTION_SECTION = /\n\n# Last action\n[\s\S]*?(?=\n\n# |$)/;

/**
 * The text of an observation that names the state it shows: the rendered observation (see
 * renderObservation) without its `# Last action` section (the action that led here and that
 * action's error), with trailing spaces and tabs cut from every line. Goal, URL and the
 * accessibility tree (bids, values, focus, and the note of lines a budget cut) stay as rendered.
 */
export function stateText(observation: string): string {
  return observation.replace(LAST_ACTION_SECTION, '').replace(/[ \t]+$/gm, '');
}

/**
 * A state's key: the SHA-256 (hex) of its stateText. Two turns that saw the same page get the
 * same key whatever path led there, which is what GiGPO groups turns by (an anchor state).
 */
export function observationStateKey(observation: string): string {
  return createHash('sha256').update(stateText(observation)).digest('hex');
}
