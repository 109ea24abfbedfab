/**
 * Ways out of the origin policy found after the first hardening: redirects from an allowed site
 * (every way a page navigates, every loopback name), URLs with credentials, and what a data: page
 * the agent wrote can open. `error` says how the step that made one must fail; cases without it are
 * scripts whose connections must simply never arrive.
 */
export interface EscapeCase {
  action: string;
  error?: RegExp;
  /**
   * The page navigates on its own after it has loaded (a meta refresh): the refused hop may come
   * after the step has answered, so the error may be on this step or not at all — the hop is
   * still refused, and nothing of the target may show.
   */
  afterLoad?: boolean;
}

const BLOCKED = /^PermissionError: Navigation to .*blocked/;

export function escapeCases(site: string, envUrl: string, bystanderPort: number): EscapeCase[] {
  const envPort = new URL(envUrl).port;
  const via = (way: string, to: string) => `goto('${site}/${way}?to=${encodeURIComponent(to)}')`;
  const dataPage = (html: string) => `goto('data:text/html,${encodeURIComponent(html).replace(/'/g, '%27')}')`;
  const worker = `new WebSocket('ws://127.0.0.1:${bystanderPort}/')`;
  return [
    ...[
      `${envUrl}/metrics`,
      `http://localhost:${envPort}/metrics`,
      `http://[::1]:${envPort}/metrics`,
      `http://127.0.0.1:${bystanderPort}/`,
      `https://127.0.0.1:${bystanderPort}/`,
    ].map((to) => ({ action: via('redirect', to), error: BLOCKED })),
    // Chromium itself never follows a redirect to file:.
    { action: via('redirect', 'file:///etc/passwd'), error: /^Error: net::ERR_UNSAFE_REDIRECT/ },
    { action: via('meta', `${envUrl}/metrics`), error: BLOCKED, afterLoad: true },
    ...['script', 'frame'].map((way) => ({ action: via(way, `${envUrl}/metrics`), error: BLOCKED })),
    { action: "goto('http://127.0.0.1%2F@tasks.gauntlet.test/')", error: BLOCKED },
    { action: `goto('http://agent@${new URL(site).host}/')`, error: BLOCKED },
    { action: dataPage('<p>framed</p><iframe src="file:///etc/passwd"></iframe>'), error: BLOCKED },
    { action: dataPage(`<script>new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}])))</script>`) },
    {
      action: dataPage(
        `<script>const p = new RTCPeerConnection({ iceServers: [{ urls: 'turn:127.0.0.1:${bystanderPort}?transport=tcp', username: 'u', credential: 'p' }] }); p.createDataChannel('x'); p.createOffer().then((o) => p.setLocalDescription(o));</script>`,
      ),
    },
  ];
}
