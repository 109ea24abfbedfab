import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  delayMs: number;
  /** The order the server asks for (told only in its welcome message). */
  order: string[];
  /** The subscribe buttons' order on the page. */
  buttons: string[];
}

/**
 * A real WebSocket to the env server's code server (see socket/code-server.ts): connect, and the
 * server's welcome names channels to subscribe to in a stated order; after that a request gets
 * the code in a message. The order is read from the server's message, never from the page's
 * layout; a subscription out of order is refused and locks the puzzle.
 */
export const websocket = defineChallenge<Params>({
  type: 'websocket',
  title: 'WebSocket',
  generate(rng) {
    const order = rng.sample(WORDS, 4);
    return { delayMs: rng.round(100, 300, 50), order, buttons: rng.shuffle(order) };
  },
  render: (ctx) => {
    const { delayMs, buttons } = ctx.params;
    ctx.instruct(
      `Press "Connect" to open a connection to the code server. Its welcome message lists channels: subscribe to them in exactly that order, then press "Request code". The server sends the code about ${delayMs} ms after the request. A subscription out of order locks the puzzle.`,
    );
    const log = ctx.el('ol', { 'aria-label': 'Messages' });
    const note = (text: string) => log.append(ctx.el('li', {}, text));
    const line = ctx.el('p', { 'aria-label': 'Connection' });
    let socket: WebSocket | null = null;
    let state: 'Disconnected' | 'Connecting' | 'Connected' | 'Waiting for the server' | 'Code received' =
      'Disconnected';
    let subscribed: string[] = [];
    const set = (next: typeof state) => {
      state = next;
      line.textContent = `Connection: ${next}. Subscribed: ${subscribed.join(', ') || 'none'}.`;
    };
    const disconnect = () => {
      socket?.close();
      socket = null;
      subscribed = [];
      set('Disconnected');
    };
    const connect = ctx.el('button', { type: 'button' }, 'Connect');
    connect.addEventListener('click', () => {
      if (state !== 'Disconnected') return ctx.say(`Already ${state.toLowerCase()}.`);
      if (!ctx.socket) return ctx.fail('This step has no code server.');
      const ws = new WebSocket(ctx.socket.url);
      socket = ws;
      set('Connecting');
      ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'hello', ticket: ctx.socket!.ticket })));
      ws.addEventListener('message', (event) => {
        if (!ctx.live() || socket !== ws) return;
        const message = JSON.parse(String(event.data)) as {
          type: string;
          code?: string;
          order?: string[];
          channel?: string;
          reason?: string;
        };
        if (message.type === 'welcome') {
          note(`Server: welcome. Subscribe in this order: ${(message.order ?? []).join(', ')}.`);
          set('Connected');
        } else if (message.type === 'subscribed') {
          subscribed.push(message.channel ?? '');
          note(`Server: subscribed to ${message.channel}.`);
          set('Connected');
        } else if (message.type === 'refused') {
          note(`Server: refused (${message.reason}).`);
          ctx.lock(`The server refused: ${message.reason}.`, disconnect);
        } else if (message.type === 'code' && message.code) {
          note('Server: code.');
          set('Code received');
          ctx.reveal(message.code);
        }
      });
      ws.addEventListener('close', (event) => {
        if (!ctx.live() || socket !== ws || state === 'Code received') return;
        note(`Closed by the server (${event.code}${event.reason ? `: ${event.reason}` : ''})`);
        disconnect();
      });
    });
    const send = (message: object, what: string) => {
      if (state !== 'Connected') return ctx.fail(`Cannot ${what} while ${state.toLowerCase()}.`);
      socket!.send(JSON.stringify(message));
      note(`You: ${what}`);
    };
    const channelButtons = buttons.map((channel) => {
      const b = ctx.el('button', { type: 'button' }, `Subscribe ${channel}`);
      b.addEventListener('click', () => {
        const ready = state === 'Connected';
        send({ type: 'subscribe', channel }, `subscribe ${channel}`);
        // Until the server answers, another press would be a second (out of order) subscription.
        if (ready) set('Waiting for the server');
      });
      return b;
    });
    const request = ctx.el('button', { type: 'button' }, 'Request code');
    request.addEventListener('click', () => {
      if (state !== 'Connected') return ctx.fail(`Cannot request the code while ${state.toLowerCase()}.`);
      send({ type: 'request' }, 'request');
      set('Waiting for the server');
    });
    ctx.onCleanup(() => socket?.close());
    ctx.area.append(connect, ' ', ...channelButtons.flatMap((b) => [b, ' ']), request, line, log);
    set('Disconnected');
  },
});
