import type { CallOptions, ResetInput } from '../src/client/types.js';
import type { EpisodeEnv } from '../src/agent/run-episode.js';
import type { StepResult } from '../src/wire/observation.js';

/** A StepResult with only what agent code reads set to something meaningful. */
export function stepResult(
  page: {
    axtree?: string;
    goal?: string;
    url?: string;
    error?: string;
    reward?: number;
    done?: boolean;
    info?: Record<string, unknown>;
  } = {},
): StepResult {
  const error = page.error ?? '';
  const metadata: StepResult['metadata'] = {
    browsergym_obs: {
      chat_messages: [],
      goal: page.goal ?? 'Click the button.',
      goal_object: [],
      open_pages_urls: [],
      open_pages_titles: [],
      active_page_index: 0,
      url: page.url ?? 'http://tasks.gauntlet.test/miniwob/click-test.html',
      extra_element_properties: {},
      focused_element_bid: '',
      last_action: '',
      last_action_error: error,
      elapsed_time: 0,
    },
    browsergym_info: {
      action_ms: 2,
      validate_ms: 1,
      observe_ms: 3,
      raw_reward: page.reward ?? 0,
      truncated: false,
      ...page.info,
    },
  };
  return {
    observation: {
      text: '',
      url: metadata.browsergym_obs.url,
      goal: metadata.browsergym_obs.goal,
      axtree_txt: page.axtree ?? "RootWebArea 'Task'\n\t[5] button 'Click Me!'",
      pruned_html: '',
      error,
      last_action_error: error !== '',
      screenshot: null,
      done: page.done ?? false,
      reward: page.reward ?? 0,
      metadata,
    },
    reward: page.reward ?? 0,
    done: page.done ?? false,
    metadata,
  };
}

/** A scripted env (unit tests only): `react` answers each action; records what it was asked. */
export class FakeEnv implements EpisodeEnv {
  readonly resets: ResetInput[] = [];
  readonly actions: string[] = [];
  readonly options: (CallOptions | undefined)[] = [];

  constructor(
    private readonly react: (action: string, step: number) => StepResult | Promise<StepResult>,
    private readonly first: StepResult = stepResult(),
  ) {}

  async reset(request: ResetInput = {}, options?: CallOptions): Promise<StepResult> {
    this.resets.push(request);
    this.options.push(options);
    return this.first;
  }

  async step(action: string | { action_str: string }, options?: CallOptions): Promise<StepResult> {
    const text = typeof action === 'string' ? action : action.action_str;
    this.actions.push(text);
    this.options.push(options);
    return this.react(text, this.actions.length);
  }
}
