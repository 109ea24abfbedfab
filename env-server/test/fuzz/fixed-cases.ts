/**
 * The inputs that crashed, froze or wedged the server when its boundaries were first probed.
 * Each must now come back as an action error in the observation (or a 4xx), quickly, on every
 * transport, with the session still usable afterwards.
 */
export const FIXED_ACTIONS: readonly string[] = [
  // Exponential backtracking in the bid grammar (2.6 s at 28 letters, ×4 per two more).
  `click('${'a'.repeat(28)}!')`,
  `click('${'a'.repeat(10_000)}!')`,
  // The quadratic scan: 80,000 characters blocked the event loop 7.2 s (now over the length cap).
  'a'.repeat(80_000),
  'a'.repeat(30_000),
  // A wheel delta Chromium reads as infinity froze the page's input for good.
  'scroll(0, 1e39)',
  'noop(1e39)',
  'mouse_move(1e309, 0)',
  // Tabs without limit: 100 new_tab() took Chromium from 8 to 108 processes.
  'new_tab()\n'.repeat(100),
  // Escapes: page JavaScript through data: URLs, blobs, local files.
  'goto(\'data:text/html,<script>new WebSocket("ws://127.0.0.1:6379")</script>\')',
  "goto('blob:null/abc')",
  "goto('file:///etc/passwd')",
  // Errors that leaked the temp path or Playwright's method names.
  "upload_file('1', '')",
  "upload_file('1', '.')",
  "upload_file('1', '/no/such/file')",
  "press('1', 'NotAKey')",
  `click(${'['.repeat(5_000)})`,
  // One key chord of 5,001 keys: 9.5 s in one browser call that nothing could stop, and the
  // page was given up on (INFRA_ERROR for the rest of the episode). Now capped: a ValueError.
  `keyboard_press('${'Shift+'.repeat(5_000)}a')`,
  `press('1', '${'Control+'.repeat(40)}a')`,
  // Typing longer than --max-typed-chars (8,000 characters took about 20 s).
  `keyboard_type('${'x'.repeat(8_000)}')`,
];

/**
 * Long typing with a short step deadline: the episode ends as truncated (the policy's timeout,
 * never a 504 or an infra error), answered before the deadline, and the session is free soon after.
 */
export const SLOW_ACTION = { action: `keyboard_type('${'x'.repeat(4_000)}')`, timeoutS: 2 };
