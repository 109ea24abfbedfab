import { z } from 'zod';
import { RecordRequest } from './record.js';
import { ResetRequest } from './requests.js';

/** Client → server frames on `/ws` (OpenEnv protocol): one reply per request, in order. */
export const WsResetFrame = z.object({ type: z.literal('reset'), data: ResetRequest.default({}) }).strict();
export const WsStepFrame = z
  .object({
    type: z.literal('step'),
    data: z.record(z.string(), z.unknown()),
    /** Gauntlet extension (OpenEnv clients omit it): the step's deadline in seconds, as HTTP's `timeout_s`. */
    timeout_s: z.number().positive().max(600).optional(),
  })
  .strict();
export const WsStateFrame = z.object({ type: z.literal('state'), data: z.unknown().optional() }).strict();
export const WsCloseFrame = z.object({ type: z.literal('close'), data: z.unknown().optional() }).strict();
/** Gauntlet extension: the next action of a recording session (reply: a `record` frame). */
export const WsRecordFrame = z
  .object({ type: z.literal('record'), data: RecordRequest.omit({ session_id: true }).default({}) })
  .strict();
export const WsMcpFrame = z.object({ type: z.literal('mcp'), data: z.unknown() }).strict();

export const WsClientFrame = z.discriminatedUnion('type', [
  WsResetFrame,
  WsStepFrame,
  WsStateFrame,
  WsCloseFrame,
  WsMcpFrame,
  WsRecordFrame,
]);
export type WsClientFrame = z.infer<typeof WsClientFrame>;
export const wsClientFrameTypes = ['reset', 'step', 'state', 'close', 'mcp', 'record'] as const;

/** Server → client frames. */
export type WsServerFrame =
  | { type: 'observation'; data: unknown }
  | { type: 'state'; data: unknown }
  | { type: 'mcp'; data: unknown }
  | { type: 'record'; data: unknown }
  | { type: 'error'; data: { message: string; code: string; [extra: string]: unknown } };
