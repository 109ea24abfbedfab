import WebSocket from 'ws';
import { errorFromCode } from '@gauntlet/proto';
import type { Rng } from './rng.js';
import { Findings } from './findings.js';
import { deeplyNested, jsonValue } from './values.js';
import { actionString } from './actions.js';

function frame(rng: Rng): string | Buffer {
  switch (rng.int(7)) {
    case 0:
      return JSON.stringify({
        type: 'reset',
        data: { task_name: rng.pick(['click-test', 'nope']), seed: jsonValue(rng, 1), options: jsonValue(rng, 2) },
      });
    case 1:
    case 2:
      return JSON.stringify({ type: 'step', data: { action_str: actionString(rng), metadata: jsonValue(rng, 2) } });
    case 3:
      return JSON.stringify({ type: rng.pick(['state', 'mcp', 'dance', 'close', '']), data: jsonValue(rng, 3) });
    case 4:
      return `{"type":"step","data":{"action_str":"noop()","metadata":{"x":${deeplyNested(rng.pick([65, 5000]))}}}}`;
    case 5:
      return JSON.stringify(jsonValue(rng, 4));
    default:
      return rng.chance(0.5) ? Buffer.from([0xff, 0x00, 0x7b]) : '{"type":';
  }
}

/**
 * `count` frames over a few connections (each one session). Error frames must carry a 4xx-class
 * code; the server may close a socket (close frame, oversize) but must answer every frame first.
 */
export async function fuzzWs(url: string, rng: Rng, count: number): Promise<Findings> {
  const findings = new Findings('ws');
  let sent = 0;
  while (sent < count) {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    for (let i = 0; i < 25 && sent < count && socket.readyState === WebSocket.OPEN; i += 1, sent += 1) {
      const data = frame(rng);
      const reply = new Promise<string | undefined>((resolve) => {
        socket.once('message', (message) => resolve(message.toString()));
        void closed.then(() => resolve(undefined));
      });
      socket.send(data);
      const text = await reply;
      if (text === undefined) break; // 'close' frames and fatal errors end the connection.
      findings.checkText(data, text);
      const parsed = JSON.parse(text) as { type: string; data: { code?: string; message?: string; name?: string } };
      if (parsed.type === 'error') {
        const status = errorFromCode(
          parsed.data.code ?? '',
          parsed.data.message ?? '',
          undefined,
          parsed.data.name,
        ).httpStatus;
        if (status >= 500) findings.add(data, `error frame ${parsed.data.code}: ${parsed.data.message}`);
      }
    }
    socket.close();
    await closed;
  }
  return findings;
}
