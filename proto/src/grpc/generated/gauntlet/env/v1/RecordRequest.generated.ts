// Original file: env.proto


/**
 * A recording session's next action (HTTP POST /record, /ws frame `record`): answered once the
 * person acted or wait_s passed (then `step` is absent).
 */
export interface RecordRequest {
  'wait_s'?: (number | string);
  'session_id'?: (string);
  '_wait_s'?: "wait_s";
}

/**
 * A recording session's next action (HTTP POST /record, /ws frame `record`): answered once the
 * person acted or wait_s passed (then `step` is absent).
 */
export interface RecordRequest__Output {
  'wait_s'?: (number);
  'session_id': (string);
  '_wait_s'?: "wait_s";
}
