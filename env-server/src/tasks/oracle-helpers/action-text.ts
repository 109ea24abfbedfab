/**
 * What every oracle policy shares: writing BrowserGym action text and saying when an
 * observation lacks what the policy needs.
 */

/** The observation lacks what the policy needs: a page, observer or goal-phrasing bug. */
export class OracleError extends Error {
  override readonly name = 'OracleError';
}

/** A Python string literal the action parser accepts (single quotes, escapes as in repr). */
export function pyString(text: string): string {
  const escaped = text.replace(
    /[\\'\n\r\t]/g,
    (c) => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!,
  );
  return `'${escaped}'`;
}
