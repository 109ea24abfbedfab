import { WEB_TASK } from '@gauntlet/proto';
import type { OriginPolicy } from '../../browser/origin-policy.js';
import type { TaskFamily } from '../registry.js';
import { webTask } from './define-task.js';

/** The open-web family: one task, `web`, on the origins the operator allows; it serves no pages itself. */
export function webFamily(policy: OriginPolicy): TaskFamily {
  return { benchmark: WEB_TASK, tasks: [webTask(policy)], site: new Map() };
}
