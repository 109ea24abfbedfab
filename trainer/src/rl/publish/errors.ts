import { GauntletError, InfraError } from '@gauntlet/proto';

/** Where a server's verification of a published version failed. */
export type VerificationStage = 'load' | 'list' | 'probe';

/**
 * A policy server did not prove it serves a published adapter version: the load was refused or
 * timed out, the adapter is not listed, or the probe's log-probs differ from the trainer's. The
 * server is taken out of rotation with this as its reason.
 */
export class ServerVerificationError extends GauntletError {
  constructor(
    readonly url: string,
    readonly stage: VerificationStage,
    readonly version: string,
    detail: string,
  ) {
    super('EXECUTION_ERROR', `policy server ${url} failed ${stage} of ${version}: ${detail}`, { url, stage, version });
  }
}

/** Every policy server has failed verification: training on would train against nothing served. */
export class NoServerInRotationError extends InfraError {
  constructor(readonly reasons: readonly { url: string; reason: string }[]) {
    super(
      `no policy server is left in rotation (${reasons.map((r) => `${r.url}: ${r.reason}`).join('; ') || 'none was configured'})`,
    );
  }
}
