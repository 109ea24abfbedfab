import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACTIONS } from '../../src/actions/catalog/catalog.js';
import type { ParamSpec } from '../../src/actions/catalog/catalog.js';

/** One thing a policy may write, with the step deadline it asks for (seconds). */
export interface HostileShape {
  name: string;
  action: string;
  timeoutS: number;
}

/**
 * Pages a policy may navigate to that misbehave: `/slow` answers after 20 s, `/hang` never, and
 * `/busy` loads and then blocks its own main thread for good (input commands stop answering).
 */
export interface HostileSite {
  origin: string;
  close(): Promise<void>;
}

export async function serveHostileSite(): Promise<HostileSite> {
  const held = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/hang') return void held.add(response);
    if (path === '/slow') {
      const timer = setTimeout(() => html('<p>late</p>'), 20_000);
      response.on('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/busy') return html('<button>x</button><script>setTimeout(() => { for (;;) {} }, 50)</script>');
    html('<p>plain</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const py = (text: string) => `'${text}'`;
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

/** Hand-picked shapes that once cost, or could cost, far more than a step's deadline. */
export function namedShapes(origin: string, bid: string): HostileShape[] {
  const chord = 'Shift+'.repeat(5_000) + 'a';
  return [
    { name: 'key chord of 5,001 keys', action: `keyboard_press(${py(chord)})`, timeoutS: 1 },
    { name: 'key chord on a bid', action: `press(${py(bid)}, ${py(chord)})`, timeoutS: 1 },
    { name: 'chord of repeated modifiers', action: `keyboard_press(${py('Control+'.repeat(40) + 'a')})`, timeoutS: 1 },
    { name: 'key down of a 20,000-char name', action: `keyboard_down(${py('x'.repeat(20_000))})`, timeoutS: 1 },
    { name: 'key up of a chord', action: `keyboard_up(${py(chord)})`, timeoutS: 1 },
    { name: 'typing 30,000 characters', action: `keyboard_type(${py('x'.repeat(30_000))})`, timeoutS: 1 },
    {
      name: 'typing 16 x 1,900 characters',
      action: `keyboard_type(${py('y'.repeat(1_900))})\n`.repeat(16),
      timeoutS: 1,
    },
    { name: 'inserting 30,000 characters', action: `keyboard_insert_text(${py('z'.repeat(30_000))})`, timeoutS: 1 },
    { name: 'filling 30,000 characters', action: `fill(${py(bid)}, ${py('w'.repeat(30_000))})`, timeoutS: 1 },
    { name: 'the longest wait', action: 'noop(600000)', timeoutS: 1 },
    { name: '16 long waits', action: 'noop(600000)\n'.repeat(16), timeoutS: 1 },
    { name: 'a wait under the tightest deadline', action: 'noop(1000)', timeoutS: 0.001 },
    { name: 'a click under the tightest deadline', action: `click(${py(bid)})`, timeoutS: 0.001 },
    { name: 'the largest scroll', action: 'scroll(100000, -100000)', timeoutS: 1 },
    {
      name: 'a drag across the whole range',
      action: 'mouse_drag_and_drop(-100000, -100000, 100000, 100000)',
      timeoutS: 1,
    },
    { name: 'scroll_at the far corner', action: 'scroll_at(100000, 100000, -100000, 100000)', timeoutS: 1 },
    { name: 'a deeply nested list', action: `click(${nested(3_000)})`, timeoutS: 1 },
    { name: 'options nested in lists', action: `select_option(${py(bid)}, ${nested(500)})`, timeoutS: 1 },
    { name: 'a 30,000-character bid', action: `click(${py('a'.repeat(30_000))})`, timeoutS: 1 },
    { name: 'goto a page that answers after 20 s', action: `goto(${py(`${origin}/slow`)})`, timeoutS: 1 },
    { name: 'goto a page that never answers', action: `goto(${py(`${origin}/hang`)})`, timeoutS: 2 },
    {
      name: 'goto a page that blocks its main thread, then click',
      action: `goto(${py(`${origin}/busy`)})\nnoop(300)\nmouse_click(5, 5)`,
      timeoutS: 2,
    },
    {
      name: 'goto a page that blocks its main thread, then type',
      action: `goto(${py(`${origin}/busy`)})\nnoop(300)\nkeyboard_type('abc')`,
      timeoutS: 2,
    },
  ];
}

/** A value of a parameter's kind as large or as odd as the action language lets a policy write. */
function hostileArgument(param: ParamSpec, variant: number, bid: string): string {
  if (param.bid) return variant === 0 ? py(bid) : py('\\x00'.repeat(50) + 'b'.repeat(5_000));
  switch (param.kind) {
    case 'string':
      if (param.allowed) return py(param.allowed[param.allowed.length - 1]!);
      return variant === 0 ? py('Shift+'.repeat(900) + 'a') : py('\\u2603'.repeat(8_000));
    case 'number':
      return String(variant === 0 ? (param.range?.[1] ?? 1e300) : (param.range?.[0] ?? -1e300));
    case 'int':
      return variant === 0 ? String(2 ** 53) : '-9999999999';
    case 'bool':
      return 'True';
    case 'list':
    case 'string_or_list':
      return variant === 0 ? `[${Array.from({ length: 2_000 }, () => py('opt')).join(', ')}]` : nested(200);
    case 'any':
      return nested(200);
  }
}

/** Every action of the catalog, twice, with every argument hostile. */
export function catalogShapes(bid: string): HostileShape[] {
  return ACTIONS.flatMap((action) =>
    [0, 1].map((variant) => ({
      name: `${action.name} variant ${variant}`,
      action: `${action.name}(${action.params.map((param) => hostileArgument(param, variant, bid)).join(', ')})`,
      timeoutS: 2,
    })),
  );
}
