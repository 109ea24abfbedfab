import type { IncomingMessage } from 'node:http';

/**
 * How long a connection whose request body was refused before its end is still read after the
 * answer. Node closes such a connection once the answer is written; with upload bytes still
 * unread, the kernel then resets it, and the reset can reach the client before the client has read
 * the answer: it sees a dropped connection instead of the 413. Reading on (and discarding) for a
 * while lets the answer arrive first, as web servers' "lingering close" does.
 */
export const LINGER_MS = 2_000;

/** Makes the close that follows the answer to `request` a lingering one, if its body is still coming. */
export function lingerAfterRefusal(request: IncomingMessage): void {
  if (request.complete) return;
  const socket = request.socket;
  request.resume();
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
