import type { ChatMessage, ObservationOptions } from '@gauntlet/proto';
import type { TaskDefinition, TaskEpisode } from '../tasks/task.js';

/** How a session parses actions; set per reset. */
export interface ActionOptions {
  subsets: Set<string>;
  strict: boolean;
  multiAction: boolean;
  /** Operator caps (see ServerConfig.maxActionChars / maxCallsPerStep). */
  maxChars: number;
  maxCalls: number;
}

/** Everything that belongs to one episode and is replaced by the next reset. */
export class Episode {
  readonly startedAt = performance.now();
  stepCount = 0;
  cumReward = 0;
  done = false;
  truncated = false;
  lastAction = '';
  lastActionError = '';
  lastRawReward = 0;
  readonly chat: ChatMessage[];

  constructor(
    readonly task: TaskDefinition,
    readonly seed: number,
    readonly episodeId: string,
    /** The task's own side of the episode: goal and reward check. */
    readonly taskEpisode: TaskEpisode,
    readonly observation: ObservationOptions,
    readonly actions: ActionOptions,
  ) {
    this.chat = [{ role: 'user', timestamp: Date.now() / 1000, message: this.goal }];
  }

  /** Steps before truncation: the episode's own (set by its options) or the task's. */
  get maxSteps(): number {
    return this.taskEpisode.maxSteps ?? this.task.maxSteps;
  }

  get goal(): string {
    return this.taskEpisode.goal;
  }

  elapsedSeconds(): number {
    return (performance.now() - this.startedAt) / 1000;
  }
}
