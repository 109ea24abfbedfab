import type { StepResult } from '@gauntlet/proto';
import { scriptedPolicy, type EpisodePolicy } from '@gauntlet/proto/agent';
import type { OracleView, TaskDefinition } from '../task.js';

/** What an oracle reads off an env reply: the same observation an agent gets. */
export function oracleView(result: StepResult): OracleView {
  const o = result.observation;
  return {
    goal: o.goal,
    axtree_txt: o.axtree_txt,
    pruned_html: o.pruned_html,
    url: o.url,
    focused_element_bid: o.metadata.browsergym_obs.focused_element_bid,
  };
}

/** A task's oracle as an episode policy, for runEpisode (tests, harnesses, data collection). */
export function oraclePolicy(task: Pick<TaskDefinition, 'name' | 'oracle'>): EpisodePolicy {
  return scriptedPolicy(
    `${task.name}-oracle`,
    () =>
      ({ result }) =>
        task.oracle(oracleView(result)),
  );
}
