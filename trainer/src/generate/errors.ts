import { GauntletError } from '@gauntlet/proto';

/** The generation queue is full; retry later (HTTP 503, like vLLM when it sheds load). */
export class QueueFullError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(waiting: number) {
    super('CAPACITY_REACHED', `the generation queue is full (${waiting} requests waiting); retry later`, { waiting });
  }
}

/** The inference thread is gone (it crashed or was shut down): nothing can be generated until the server restarts (HTTP 503). */
export class EngineStoppedError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor() {
    super('INFRA_ERROR', 'the inference engine has stopped; this server needs a restart');
  }
}
