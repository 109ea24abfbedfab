import type { ModelTokenizer } from '../../../model/tokenizer.js';
import { demoStates, type Demonstration } from '../../../train/sdft/demo-states.js';
import type { EncodedState } from '../../../train/sdft/step.js';
import { teacherMessages } from '../../../train/sdft/teacher-prompt.js';

export interface EncodedDemo {
  states: EncodedState[];
  /** States left out: their teacher prompt and the continuation would not fit `maxLength`. */
  tooLong: number;
  /** Longest teacher prompt kept, in tokens. */
  longestTeacher: number;
}

/**
 * Every demo state as the two prompts SDFT samples and scores from, through the model's chat
 * template with the generation prompt: the student's (the recorded conversation up to the state)
 * and the teacher's (the same, the demonstration in the state's turn). A state whose teacher prompt
 * plus `maxNewTokens` exceeds `maxLength` is left out and counted.
 */
export function encodeDemoStates(
  demos: readonly Demonstration[],
  tokenizer: ModelTokenizer,
  template: string,
  maxLength: number,
  maxNewTokens: number,
): EncodedDemo {
  const states: EncodedState[] = [];
  let tooLong = 0;
  let longestTeacher = 0;
  for (const demo of demos)
    for (const state of demoStates(demo)) {
      const encode = (messages: typeof state.prompt) => tokenizer.encodeChat(messages, { addGenerationPrompt: true });
      const teacher = encode(teacherMessages(state.prompt, state.demonstration, template));
      if (teacher.length + maxNewTokens > maxLength) {
        tooLong++;
        continue;
      }
      longestTeacher = Math.max(longestTeacher, teacher.length);
      states.push({ student: encode(state.prompt), teacher });
    }
  return { states, tooLong, longestTeacher };
}
