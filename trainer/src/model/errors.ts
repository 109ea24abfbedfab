import { GauntletError } from '@gauntlet/proto';

/**
 * A model, tokenizer or adapter file is missing or malformed. The message starts with the file's
 * path so a user can open it and fix the named field or tensor.
 */
export class ModelFileError extends GauntletError {
  static override readonly httpStatus = 422;

  constructor(
    readonly file: string,
    detail: string,
    readonly field?: string,
  ) {
    super('VALIDATION_ERROR', `${file}: ${detail}`, { file, ...(field === undefined ? {} : { field }) });
  }
}
