import { GauntletError } from '@gauntlet/proto';

/** A checkpoint file is missing, partial or corrupt; the message starts with the file to look at. */
export class CheckpointError extends GauntletError {
  static override readonly httpStatus = 422;

  constructor(
    readonly file: string,
    detail: string,
  ) {
    super('VALIDATION_ERROR', `${file}: ${detail}`, { file });
  }
}
