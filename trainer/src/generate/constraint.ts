/**
 * Restricts which tokens may come next (structured outputs). The engine asks before every draw
 * and reports the token drawn; end-of-sequence ids are allowed only where the output is complete.
 */
export interface TokenConstraint {
  /** 1 for each allowed token id; `remaining` = tokens still allowed by max_tokens, so the constraint can steer towards an end in time. */
  allowedNext(remaining: number): Uint8Array;
  advance(token: number): void;
  /** True when the text so far is a complete match. */
  readonly complete: boolean;
  /** Fewest tokens any complete output needs: a smaller max_tokens could never finish it. */
  readonly minTokens: number;
}
