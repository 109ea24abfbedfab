import type { StepResult } from '../src/wire/observation.js';

/** A step result using every part of the wire: screenshots both ways, properties with and without a box, chat, extras. */
export function sampleStepResult(): StepResult {
  const metadata: StepResult['metadata'] = {
    browsergym_obs: {
      chat_messages: [{ role: 'assistant', timestamp: 1700000000.5, message: 'hi' }],
      goal: 'Click the button',
      goal_object: [{ type: 'text', text: 'Click the button' }],
      open_pages_urls: ['http://task.local/click-test.html'],
      open_pages_titles: ['Click Test'],
      active_page_index: 0,
      url: 'http://task.local/click-test.html',
      extra_element_properties: {
        '13': { visibility: 1, bbox: [10.5, 20, 100, 30], clickable: true, set_of_marks: true },
        '14': { visibility: 0, bbox: null, clickable: false, set_of_marks: false },
      },
      focused_element_bid: '13',
      last_action: "click('13')",
      last_action_error: '',
      elapsed_time: 1.25,
    },
    browsergym_info: {
      action_ms: 3.5,
      observe_parts_ms: { axtree: 1.2 },
      task_info: {},
      truncated: false,
      raw_reward: null,
      tags: ['a', 1],
    },
    screenshot_encoded: {
      format: 'png',
      width: 2,
      height: 1,
      base64: Buffer.from([137, 80, 78, 71]).toString('base64'),
    },
    custom_key: { anything: [1, 2, 3] },
  };
  return {
    observation: {
      text: "[13] button 'Click Me!'",
      url: 'http://task.local/click-test.html',
      goal: 'Click the button',
      axtree_txt: "[13] button 'Click Me!'",
      pruned_html: '<button bid="13">Click Me!</button>',
      error: '',
      last_action_error: false,
      screenshot: [
        [
          [255, 0, 0],
          [0, 255, 0],
        ],
        [
          [0, 0, 255],
          [7, 8, 9],
        ],
      ],
      done: true,
      reward: 1,
      metadata,
    },
    reward: 1,
    done: true,
    metadata,
  };
}

/** A group job's input as a producer writes it: `size` episodes of click-test seed 4, under `groupId`. */
export function sampleGroupInput(groupId = 'step3-click-test-4', size = 3) {
  return {
    group_id: groupId,
    task: 'click-test',
    seed: 4,
    size,
    policy: { model: 'tiny', adapter: 'grpo', version: 3 },
    settings: {},
    submitted_at: new Date(0).toISOString(),
  };
}
