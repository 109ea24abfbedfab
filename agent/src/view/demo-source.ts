import { readDemo, type DemoStep } from '../report/demo-file.js';
import type { ViewEpisode, ViewTurn } from './view-types.js';

/**
 * A person's demonstration (demo.json from `record`) as one episode of the viewer: each recorded
 * action is a step with the page it was taken on (screenshot, AXTree), the action — its bid box
 * drawn when the recording kept the element boxes — and the reward after it. There is no model
 * reply to show (text null).
 */
export function demoEpisode(file: string): ViewEpisode {
  const demo = readDemo(file);
  const outcome = !demo.done ? 'stopped' : demo.reward > 0 ? 'success' : 'fail';
  return {
    id: `${demo.task}#${demo.seed}/demo`,
    task: demo.task,
    seed: demo.seed,
    outcome,
    reward: demo.reward,
    error: null,
    note: `a person's demonstration, recorded ${demo.recorded_at || 'at an unknown time'} · goal: ${demo.goal}`,
    final_screenshot: null,
    turns: demo.steps.map((step) => demoTurn(step)),
  };
}

function demoTurn(step: DemoStep): ViewTurn {
  return {
    index: step.index,
    actor: `person (${step.wall_time_s.toFixed(1)} s)`,
    url: step.observation.url,
    text: null,
    action: step.action,
    parse_error: false,
    env_error: '',
    reward: step.reward,
    done: step.done,
    screenshot: step.observation.screenshot,
    marks: step.marks ?? [],
    page: () => step.observation.axtree,
  };
}
