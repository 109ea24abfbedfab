import { constants as http2, type ServerHttp2Stream } from 'node:http2';
import type { ServerDuplexStream } from '@grpc/grpc-js';

/**
 * The HTTP/2 stream under a grpc-js server call. grpc-js has no public way to reset one server
 * stream, so this walks its call chain (`call`, then each interceptor's `nextCall`) to the object
 * holding `stream`; undefined if a grpc-js release changed that shape (nothing is reset then).
 */
function http2StreamOf(call: ServerDuplexStream<unknown, unknown>): ServerHttp2Stream | undefined {
  let link = (call as unknown as { call?: unknown }).call;
  for (let depth = 0; link && typeof link === 'object' && depth < 16; depth += 1) {
    const stream = (link as { stream?: Partial<ServerHttp2Stream> }).stream;
    if (stream && typeof stream.close === 'function' && 'rstCode' in stream) return stream as ServerHttp2Stream;
    link = (link as { nextCall?: unknown }).nextCall;
  }
  return undefined;
}

/**
 * After a stream was failed, what it still has to send (unsent replies, then the status) waits
 * for its client to read. A client that never does would keep those bytes here as long as it
 * keeps the connection: `graceMs` later, a stream not yet closed is reset (RST_STREAM CANCEL).
 */
export function resetIfStillOpen(call: ServerDuplexStream<unknown, unknown>, graceMs: number): void {
  setTimeout(() => {
    const stream = http2StreamOf(call);
    if (stream && !stream.closed && !stream.destroyed) stream.close(http2.NGHTTP2_CANCEL);
  }, graceMs).unref();
}
