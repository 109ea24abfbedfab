import { defineChallenge } from '../challenge.js';

interface Params {
  delayMs: number;
}

/**
 * A real WebSocket to the env server's code server (see socket/code-server.ts): connect, say
 * hello with the step's ticket, request the code, and the code arrives in a message.
 */
export const websocket = defineChallenge<Params>({
  type: 'websocket',
  title: 'WebSocket',
  generate: (rng) => ({ delayMs: rng.round(100, 300, 50) }),
  render: (ctx) => {
    const { delayMs } = ctx.params;
    ctx.instruct(
      `Press "Connect" to open a WebSocket to the code server, then press "Request code". The server sends the code about ${delayMs} ms after the request.`,
    );
    const log = ctx.el('ol', { 'aria-label': 'Messages' });
    const note = (text: string) => log.append(ctx.el('li', {}, text));
    let socket: WebSocket | null = null;
    let state: 'Disconnected' | 'Connecting' | 'Connected' | 'Waiting for the server' | 'Code received' =
      'Disconnected';
    const set = (next: typeof state) => {
      state = next;
      ctx.say(`Connection: ${next}.`);
    };
    const connect = ctx.el('button', { type: 'button' }, 'Connect');
    const request = ctx.el('button', { type: 'button' }, 'Request code');
    connect.addEventListener('click', () => {
      if (state !== 'Disconnected') return ctx.say(`Connection: ${state} (already connected).`);
      if (!ctx.socket) return ctx.fail('This step has no code server.');
      const ws = new WebSocket(ctx.socket.url);
      socket = ws;
      set('Connecting');
      ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'hello', ticket: ctx.socket!.ticket })));
      ws.addEventListener('message', (event) => {
        if (!ctx.live()) return;
        const message = JSON.parse(String(event.data)) as { type: string; code?: string };
        note(`Server: ${message.type}`);
        if (message.type === 'welcome') set('Connected');
        if (message.type === 'code' && message.code) {
          set('Code received');
          ctx.reveal(message.code);
        }
      });
      ws.addEventListener('close', (event) => {
        if (!ctx.live() || state === 'Code received') return;
        socket = null;
        note(`Closed by the server (${event.code}${event.reason ? `: ${event.reason}` : ''})`);
        set('Disconnected');
      });
    });
    request.addEventListener('click', () => {
      if (state !== 'Connected') return ctx.fail(`Cannot request the code while ${state.toLowerCase()}.`);
      socket!.send(JSON.stringify({ type: 'request' }));
      note('You: request');
      set('Waiting for the server');
    });
    ctx.onCleanup(() => socket?.close());
    ctx.area.append(connect, ' ', request, log);
    set('Disconnected');
  },
});
