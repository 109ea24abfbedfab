import type { BrowserGymObs, Observation, ObservationMetadata, StepResult } from '@gauntlet/proto';
import { observePage, type PageObservation } from '../observe/observe.js';
import type { PageDeadline } from '../deadline/page-deadline.js';
import type { Episode } from './episode.js';
import { oracleHint } from './oracle-hint.js';
import type { Tabs } from './tabs.js';

/** Observes the active tab and assembles OpenEnv's reply: observation, reward, done, metadata; `deadline` stops the observing. */
export async function buildResult(
  episode: Episode,
  tabs: Tabs,
  reward: number,
  info: Record<string, unknown>,
  deadline: PageDeadline,
): Promise<StepResult> {
  const page = tabs.active;
  const t0 = performance.now();
  const wanted = episode.observation;
  // The oracle reads the AXTree, so it is computed for the hint even when the agent did not ask for it.
  const seen = await observePage(page, { ...wanted, axtree: wanted.axtree || wanted.oracle_action, deadline });
  const titles = await deadline.race(
    Promise.all(tabs.all().map((p) => (p === page ? Promise.resolve(seen.title) : p.title().catch(() => '')))),
  );
  return assembleResult(episode, tabs, seen, titles, reward, { ...info, observe_ms: performance.now() - t0 });
}

/**
 * The reply for a step that ran out of its deadline: nothing is read from the page (it may not
 * answer), so the observation is empty apart from the URLs Playwright already knows.
 */
export function blankResult(episode: Episode, tabs: Tabs | undefined, info: Record<string, unknown>): StepResult {
  const pages = tabs?.all() ?? [];
  const seen: PageObservation = {
    axtree_txt: '',
    pruned_html: '',
    extra_element_properties: {},
    focused_element_bid: '',
    screenshot: null,
    url: tabs?.active.url() ?? '',
    title: '',
    timings: {},
  };
  return assembleResult(
    episode,
    tabs,
    seen,
    pages.map(() => ''),
    0,
    { ...info, observe_ms: 0 },
  );
}

function assembleResult(
  episode: Episode,
  tabs: Tabs | undefined,
  seen: PageObservation,
  titles: string[],
  reward: number,
  info: Record<string, unknown>,
): StepResult {
  const pages = tabs?.all() ?? [];
  const browsergymObs: BrowserGymObs = {
    chat_messages: [...episode.chat],
    goal: episode.goal,
    goal_object: [{ type: 'text', text: episode.goal }],
    open_pages_urls: pages.map((p) => p.url()),
    open_pages_titles: titles,
    active_page_index: tabs?.index ?? 0,
    url: seen.url,
    extra_element_properties: seen.extra_element_properties,
    focused_element_bid: seen.focused_element_bid,
    last_action: episode.lastAction,
    last_action_error: episode.lastActionError,
    elapsed_time: episode.elapsedSeconds(),
  };
  const metadata: ObservationMetadata = {
    browsergym_obs: browsergymObs,
    browsergym_info: {
      ...info,
      observe_parts_ms: seen.timings,
      task_name: `${episode.task.benchmark}.${episode.task.name}`,
      seed: episode.seed,
      step: episode.stepCount,
      raw_reward: episode.lastRawReward,
      truncated: episode.truncated,
      terminated: episode.done && !episode.truncated,
      ...(episode.observation.oracle_action
        ? oracleHint(
            episode.task,
            {
              goal: episode.goal,
              axtree_txt: seen.axtree_txt,
              pruned_html: seen.pruned_html,
              url: seen.url,
              focused_element_bid: seen.focused_element_bid,
            },
            episode.done,
          )
        : {}),
    },
    ...(seen.screenshot_encoded ? { screenshot_encoded: seen.screenshot_encoded } : {}),
  };
  const axtree = episode.observation.axtree ? seen.axtree_txt : '';
  const observation: Observation = {
    text: axtree || seen.pruned_html,
    url: seen.url,
    goal: episode.goal,
    axtree_txt: axtree,
    pruned_html: seen.pruned_html,
    error: episode.lastActionError,
    last_action_error: episode.lastActionError !== '',
    screenshot: seen.screenshot,
    done: episode.done,
    reward,
    metadata,
  };
  return { observation, reward, done: episode.done, metadata };
}
