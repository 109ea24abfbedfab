import type { ElementFacts } from './diagnose-facts.js';

/** The bid actions a diagnosis can be about. */
export type BidActionName =
  | 'click'
  | 'dblclick'
  | 'hover'
  | 'drag_and_drop'
  | 'fill'
  | 'clear'
  | 'select_option'
  | 'press'
  | 'focus'
  | 'upload_file';

export type DiagnosisKind =
  | 'missing'
  | 'duplicate'
  | 'wrong-element'
  | 'select-for-fill'
  | 'no-option'
  | 'hidden'
  | 'disabled'
  | 'read-only'
  | 'offscreen'
  | 'no-pointer-events'
  | 'covered';

export interface Diagnosis {
  kind: DiagnosisKind;
  message: string;
  /** The agent asked for something this element cannot do: a ValueError, Playwright's text adds nothing. */
  invalidRequest: boolean;
  /** A force retry would act on another element or on a control no user could operate. */
  blocksForce: boolean;
}

interface Needs {
  /** A pointer must reach the element (click, hover, drag). */
  pointer?: boolean;
  enabled?: boolean;
  /** fill and clear: a text-like input, textarea or contenteditable that is not read-only. */
  editable?: boolean;
  select?: boolean;
}

const NEEDS: Record<BidActionName, Needs> = {
  click: { pointer: true, enabled: true },
  dblclick: { pointer: true, enabled: true },
  hover: { pointer: true },
  drag_and_drop: { pointer: true },
  fill: { editable: true, enabled: true },
  clear: { editable: true, enabled: true },
  select_option: { select: true, enabled: true },
  upload_file: { pointer: true, enabled: true },
  press: {},
  focus: {},
};

/** Input types Playwright's fill accepts; others need another action, named in the hint. */
const FILLABLE_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
  'range',
]);
const INPUT_HINTS: Record<string, string> = {
  checkbox: 'use click to toggle it',
  radio: 'use click to choose it',
  file: 'use upload_file',
  submit: 'use click',
  button: 'use click',
  reset: 'use click',
  image: 'use click',
};
const MAX_LISTED_OPTIONS = 20;

export interface ExplainRequest {
  bid: string;
  action: BidActionName;
  /** select_option's requested values or labels. */
  wanted?: string[];
}

/** The first reason, in the order a user would check them, why `action` cannot act on the element; undefined when none is visible. */
export function explain(facts: ElementFacts, { bid, action, wanted }: ExplainRequest): Diagnosis | undefined {
  const needs = NEEDS[action];
  const subject = `element with bid "${bid}"`;
  const invalid = (kind: DiagnosisKind, message: string): Diagnosis => ({
    kind,
    message,
    invalidRequest: true,
    blocksForce: true,
  });
  const state = (kind: DiagnosisKind, detail: string, blocksForce = true): Diagnosis => ({
    kind,
    message: `${subject} ${detail}`,
    invalidRequest: false,
    blocksForce,
  });

  if (facts.count === 0) return invalid('missing', `Could not find element with bid "${bid}"`);
  if (facts.count > 1)
    return invalid('duplicate', `bid "${bid}" matches ${facts.count} elements (duplicate bids on the page)`);
  const what = describeElement(facts);

  if (needs.editable && !isFillable(facts)) {
    if (facts.tag === 'select' && action === 'fill') return invalid('select-for-fill', `${subject} is a <select>`);
    const hint = facts.tag === 'input' ? INPUT_HINTS[facts.inputType ?? ''] : undefined;
    const needsText = facts.tag === 'input' ? 'a text input' : 'an input, textarea, select or contenteditable';
    return invalid('wrong-element', `${subject} is ${what}, ${action} needs ${needsText}${hint ? `; ${hint}` : ''}`);
  }
  if (needs.select) {
    if (facts.tag !== 'select')
      return invalid('wrong-element', `${subject} is ${what}, select_option needs a <select>`);
    const missing = unmatchedOptions(facts.options ?? [], wanted ?? []);
    if (missing.length > 0)
      return invalid(
        'no-option',
        `${subject} has no option ${quoteList(missing)}; available options: ${listOptions(facts.options ?? [])}`,
      );
  }
  // A forced selectOption sets a hidden <select> (custom widgets hide the native one); a forced
  // fill types into nothing, and a pointer needs a box.
  if (facts.hidden) return state('hidden', `is hidden (${facts.hidden})`, !needs.select);
  if (needs.enabled && facts.disabled)
    return state('disabled', facts.disabled === 'disabled' ? 'is disabled' : `is disabled (${facts.disabled})`);
  if (needs.editable && facts.readOnly) return state('read-only', 'is read-only');
  if (!needs.pointer) return undefined;
  if (facts.offscreenAt) {
    const { x, y } = facts.offscreenAt;
    return state('offscreen', `is outside the viewport at (${x}, ${y}) and cannot be scrolled into view`);
  }
  // A click landing on the element's own label, or inside the button around it, does what was meant.
  const coverActsForIt = facts.coverIsOwnLabel || facts.coverInControlAround;
  if (facts.noPointerEvents)
    return state('no-pointer-events', 'does not receive pointer events (pointer-events: none)', !coverActsForIt);
  if (facts.coveredBy) return state('covered', `is covered by ${facts.coveredBy}`, !coverActsForIt);
  return undefined;
}

function isFillable(facts: ElementFacts): boolean {
  if (facts.contentEditable || facts.tag === 'textarea') return true;
  return facts.tag === 'input' && FILLABLE_INPUT_TYPES.has(facts.inputType ?? 'text');
}

function describeElement(facts: ElementFacts): string {
  const tag = facts.tag === 'input' ? `<input type="${facts.inputType ?? 'text'}">` : `<${facts.tag}>`;
  return `${/^<[aeio]/.test(tag) ? 'an' : 'a'} ${tag}`; // 'a <ul>', 'an <input …>'
}

function unmatchedOptions(options: { value: string; label: string }[], wanted: string[]): string[] {
  return wanted.filter((w) => !options.some((o) => o.value === w || o.label === w));
}

function quoteList(values: string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function listOptions(options: { value: string; label: string }[]): string {
  if (options.length === 0) return 'none';
  const shown = options
    .slice(0, MAX_LISTED_OPTIONS)
    .map((o) =>
      o.label === o.value ? JSON.stringify(o.label) : `${JSON.stringify(o.label)} (value ${JSON.stringify(o.value)})`,
    );
  const more = options.length - shown.length;
  return shown.join(', ') + (more > 0 ? `, … (${more} more)` : '');
}
