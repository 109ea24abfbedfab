/**
 * The names of BrowserGym's high-level actions (0.14), in its documentation order: the one list
 * of them. It is what an agent may emit (the parser looks for these calls, the action regex
 * allows them), and the env server's catalog is keyed by it, so the compiler refuses a catalog
 * that misses, adds or misfiles a name.
 */
export const ACTION_NAMES = [
  'noop',
  'send_msg_to_user',
  'report_infeasible',
  'click',
  'dblclick',
  'hover',
  'fill',
  'select_option',
  'press',
  'focus',
  'clear',
  'drag_and_drop',
  'upload_file',
  'scroll',
  'scroll_at',
  'mouse_move',
  'mouse_down',
  'mouse_up',
  'mouse_click',
  'mouse_dblclick',
  'mouse_drag_and_drop',
  'mouse_upload_file',
  'keyboard_down',
  'keyboard_up',
  'keyboard_press',
  'keyboard_type',
  'keyboard_insert_text',
  'go_back',
  'go_forward',
  'goto',
  'new_tab',
  'tab_close',
  'tab_focus',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** Actions whose leading arguments are element ids (bids), and how many: drag_and_drop takes two. */
export const BID_ARGUMENTS = {
  click: 1,
  dblclick: 1,
  hover: 1,
  fill: 1,
  select_option: 1,
  press: 1,
  focus: 1,
  clear: 1,
  drag_and_drop: 2,
  upload_file: 1,
} as const satisfies Partial<Record<ActionName, number>>;
