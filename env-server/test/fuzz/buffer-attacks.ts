import WebSocket from 'ws';
import http from 'node:http';
import http2 from 'node:http2';
import { envMessageCodec } from '@gauntlet/proto/grpc';

const requestCodec = envMessageCodec('gauntlet.env.v1.SessionRequest');

/** A reset whose reply carries a full-viewport RGB screenshot (about 10 MB of JSON at 1280x720). */
export const SCREENSHOT_RESET = { task_name: 'click-test', seed: 1, observation: { screenshot: 'rgb' } };

/** A frame of `bytes` that deflate shrinks a thousandfold: `{"type":"state"}` padded with spaces. */
export function paddedStateFrame(bytes: number): Buffer {
  const head = Buffer.from('{"type":"state"');
  const frame = Buffer.alloc(bytes, 0x20);
  head.copy(frame);
  frame[bytes - 1] = 0x7d; // '}'
  return frame;
}

/** Sends `frame` up to `count` times, each once the last was written, until the socket closes. */
export async function sendUntilClosed(socket: WebSocket, frame: Buffer, count: number): Promise<number> {
  let sent = 0;
  while (sent < count && socket.readyState === WebSocket.OPEN) {
    const written = await new Promise<boolean>((resolve) => socket.send(frame, (error) => resolve(!error)));
    if (!written) break;
    sent += 1;
  }
  return sent;
}

/**
 * A Session stream spoken over bare HTTP/2, so the test decides when bytes are read: until
 * `read()`, nothing consumes the response, and HTTP/2 flow control holds the server's replies on
 * the server (grpc-js's own client reads into memory whether asked or not). `opened` resolves
 * once the response headers came (the session is open), `ended` with the trailers and the bytes
 * read, `closed` with the RST_STREAM code when the stream closes.
 */
export function unreadSessionStream(grpcUrl: string) {
  const session = http2.connect(grpcUrl.replace(/^grpc:/, 'http:'));
  const stream = session.request({
    ':method': 'POST',
    ':path': '/gauntlet.env.v1.EnvService/Session',
    'content-type': 'application/grpc',
    te: 'trailers',
  });
  // A reset or a destroyed session is an outcome the test looks at, not an error to throw.
  session.on('error', () => undefined);
  stream.on('error', () => undefined);
  const opened = new Promise<void>((resolve) => stream.once('response', () => resolve()));
  let bytesRead = 0;
  const ended = new Promise<{ trailers: http2.IncomingHttpHeaders; bytesRead: number }>((resolve) =>
    stream.once('trailers', (trailers) => resolve({ trailers, bytesRead })),
  );
  // The stream closing under a client that never read: the server reset it (its RST_STREAM code).
  const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0)));
  return {
    opened,
    ended,
    closed,
    send(message: object): void {
      const body = requestCodec.serialize(message);
      const frame = Buffer.alloc(5 + body.length);
      frame.writeUInt32BE(body.length, 1); // byte 0: not compressed
      body.copy(frame, 5);
      stream.write(frame);
    },
    read(): void {
      stream.on('data', (chunk: Buffer) => (bytesRead += chunk.length));
    },
    close: () => session.destroy(),
  };
}

/**
 * POSTs `megabytes` of JSON whitespace as a chunked body (no Content-Length, so the server can
 * only count as it reads); resolves with the status and body the server answered.
 */
export function postChunked(url: string, megabytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      // The server may close the connection right after its answer (the upload is still coming):
      // then the response ends with 'close', not 'end'. Either way the answer is what it sent.
      const done = () => resolve({ status: response.statusCode ?? 0, body });
      response.on('end', done);
      response.on('close', done);
    });
    // The server stops reading once it answered: the rest of the upload fails (EPIPE), the answer
    // stands. A connection cut before any answer is status 0, so the test fails instead of waiting.
    request.on('error', (error) => {
      if (!answered) setImmediate(() => !answered && resolve({ status: 0, body: String(error) }));
    });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < megabytes) {
        sent += 1;
        if (!request.write(chunk)) return void request.once('drain', more);
      }
      request.end();
    };
    more();
  });
}
