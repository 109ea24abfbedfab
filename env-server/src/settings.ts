import type { ServerConfig } from './config.js';

/** How a step waits after its actions (actions/settle/settle-effects.ts): for what they set in motion, or a fixed 0.5 s. */
export type SettleMode = 'smart' | 'browsergym';
export const SETTLE_MODES: readonly SettleMode[] = ['smart', 'browsergym'];

/** One row per setting: the flag, the variables it reads (first wins), and how to parse it. */
export interface Setting {
  key: keyof ServerConfig | 'viewportWidth' | 'viewportHeight' | 'screenshot';
  flag: string;
  env: string[];
  /** `port`: an integer, or `off` for a server that is not started; `choice`: one of `choices`. */
  kind: 'int' | 'port' | 'bool' | 'string' | 'list' | 'choice';
  choices?: readonly string[];
  /** Bounds of an `int` (inclusive; the lowest is 0 unless given). */
  min?: number;
  max?: number;
  /** Placeholder in --help, e.g. `PORT` for `--port PORT`. */
  valueName?: string;
  /** The default as --help says it, when it is computed rather than a value in DEFAULTS. */
  defaultText?: string;
  help: string;
}

export const SETTINGS: Setting[] = [
  {
    key: 'port',
    flag: 'port',
    min: 0,
    max: 65535,
    valueName: 'PORT',
    env: ['PORT', 'BROWSERGYM_PORT'],
    kind: 'int',
    help: 'HTTP/WebSocket port; 0 picks a free one',
  },
  {
    key: 'grpcPort',
    flag: 'grpc-port',
    valueName: 'PORT|off',
    env: ['GRPC_PORT'],
    kind: 'port',
    help: 'gRPC port: EnvService, grpc.health.v1, reflection; off = no gRPC server',
  },
  {
    key: 'grpcTlsCert',
    flag: 'grpc-tls-cert',
    valueName: 'FILE',
    env: ['GRPC_TLS_CERT'],
    kind: 'string',
    help: 'PEM certificate chain file: serve gRPC over TLS (with --grpc-tls-key)',
  },
  {
    key: 'grpcTlsKey',
    flag: 'grpc-tls-key',
    valueName: 'FILE',
    env: ['GRPC_TLS_KEY'],
    kind: 'string',
    help: 'PEM private key file for --grpc-tls-cert',
  },
  {
    key: 'grpcMessageLimitBytes',
    flag: 'grpc-message-limit',
    env: ['GAUNTLET_GRPC_MESSAGE_LIMIT'],
    kind: 'int',
    help: 'max gRPC request message in bytes',
  },
  {
    key: 'host',
    flag: 'host',
    valueName: 'HOST',
    env: ['HOST'],
    kind: 'string',
    help: 'interface to listen on (0.0.0.0 = every interface, as the Docker images set)',
  },
  {
    key: 'maxSessions',
    flag: 'max-sessions',
    min: 1,
    env: ['MAX_CONCURRENT_ENVS'],
    kind: 'int',
    help: 'concurrent sessions before CAPACITY_REACHED',
  },
  {
    key: 'idleTtlMs',
    flag: 'idle-ttl-ms',
    env: ['GAUNTLET_IDLE_TTL_MS'],
    kind: 'int',
    help: 'close sessions idle this long; 0 = never',
  },
  {
    key: 'headless',
    flag: 'headless',
    env: ['BROWSERGYM_HEADLESS'],
    kind: 'bool',
    help: 'run Chromium headless',
  },
  {
    key: 'allowHeaded',
    flag: 'allow-headed',
    env: ['GAUNTLET_ALLOW_HEADED'],
    kind: 'bool',
    help: 'let a reset ask for a visible (headed) browser or a recording session; needs a display',
  },
  {
    key: 'headedCdpPort',
    flag: 'headed-cdp-port',
    env: [],
    kind: 'int',
    help: 'debugging: the headed browser also serves the DevTools protocol on this loopback port; 0 = off',
  },
  {
    key: 'viewportWidth',
    flag: 'viewport-width',
    env: ['BROWSERGYM_VIEWPORT_WIDTH'],
    kind: 'int',
    help: 'viewport width in px',
  },
  {
    key: 'viewportHeight',
    flag: 'viewport-height',
    env: ['BROWSERGYM_VIEWPORT_HEIGHT'],
    kind: 'int',
    help: 'viewport height in px',
  },
  {
    key: 'pageTimeoutMs',
    flag: 'timeout-ms',
    env: ['BROWSERGYM_TIMEOUT'],
    kind: 'int',
    help: 'page load / navigation timeout in ms',
  },
  {
    key: 'settle',
    flag: 'settle',
    env: ['GAUNTLET_SETTLE'],
    kind: 'choice',
    choices: SETTLE_MODES,
    valueName: 'MODE',
    help: "after a step's actions: smart = wait for the timers, frames, requests and transitions they started (at most 0.5 s), browsergym = BrowserGym's fixed 0.5 s",
  },
  {
    key: 'actionTimeoutMs',
    flag: 'action-timeout-ms',
    env: ['GAUNTLET_ACTION_TIMEOUT_MS'],
    kind: 'int',
    help: 'per bid-action timeout in ms before the forced retry',
  },
  {
    key: 'defaultTask',
    flag: 'task',
    valueName: 'NAME',
    env: ['BROWSERGYM_TASK_NAME'],
    kind: 'string',
    help: 'task used when reset names none',
  },
  {
    key: 'screenshot',
    flag: 'screenshot',
    env: ['BROWSERGYM_INCLUDE_SCREENSHOT'],
    kind: 'bool',
    help: 'include the RGB screenshot by default',
  },
  {
    key: 'warmContexts',
    flag: 'warm',
    env: ['GAUNTLET_WARM_CONTEXTS'],
    kind: 'int',
    help: 'browser contexts kept warm for new sessions',
  },
  {
    key: 'allowedOrigins',
    flag: 'allow-origin',
    env: ['GAUNTLET_ALLOWED_ORIGINS'],
    kind: 'list',
    help: 'extra origins pages may reach (every redirect hop included), comma separated; * allows any host but loopback',
    defaultText: 'task origins only',
  },
  {
    key: 'allowDataUrls',
    flag: 'allow-data-urls',
    env: ['GAUNTLET_ALLOW_DATA_URLS'],
    kind: 'bool',
    help: 'let goto() open data: and blob: URLs, which run page JavaScript the agent wrote',
  },
  {
    key: 'uploadDir',
    flag: 'upload-dir',
    valueName: 'DIR',
    env: ['GAUNTLET_UPLOAD_DIR'],
    kind: 'string',
    help: 'the folder upload_file may read files from',
    defaultText: 'none, uploads off',
  },
  {
    key: 'allowScriptActions',
    flag: 'allow-script-actions',
    env: ['GAUNTLET_ALLOW_SCRIPT_ACTIONS'],
    kind: 'bool',
    help: 'enable script-evaluating actions',
  },
  {
    key: 'maxTabs',
    flag: 'max-tabs',
    min: 1,
    env: ['GAUNTLET_MAX_TABS'],
    kind: 'int',
    help: 'tabs a session may have open, pages opened by pages included',
  },
  {
    key: 'maxActionChars',
    flag: 'max-action-chars',
    env: ['GAUNTLET_MAX_ACTION_CHARS'],
    kind: 'int',
    help: 'longest action string a step accepts, in characters',
  },
  {
    key: 'maxCallsPerStep',
    flag: 'max-calls-per-step',
    env: ['GAUNTLET_MAX_CALLS_PER_STEP'],
    kind: 'int',
    help: 'most action calls one step may run',
  },
  {
    key: 'maxTypedChars',
    flag: 'max-typed-chars',
    env: ['GAUNTLET_MAX_TYPED_CHARS'],
    kind: 'int',
    help: 'most characters one keyboard_type may type',
  },
  {
    key: 'bearerToken',
    flag: 'token',
    valueName: 'TOKEN',
    env: ['GAUNTLET_TOKEN'],
    kind: 'string',
    help: 'require "Authorization: Bearer <token>" on every route but /health',
  },
  {
    key: 'bodyLimitBytes',
    flag: 'body-limit',
    env: ['GAUNTLET_BODY_LIMIT'],
    kind: 'int',
    help: 'max HTTP body in bytes',
  },
  {
    key: 'wsFrameLimitBytes',
    flag: 'frame-limit',
    env: ['GAUNTLET_WS_FRAME_LIMIT'],
    kind: 'int',
    help: 'max WebSocket frame in bytes, after decompression',
  },
  {
    key: 'maxQueuedRequests',
    flag: 'max-queued-requests',
    min: 1,
    env: ['GAUNTLET_MAX_QUEUED_REQUESTS'],
    kind: 'int',
    help: 'WS/gRPC requests a connection may send ahead of its replies; more are refused with PAYLOAD_TOO_LARGE, twice as many close it',
  },
  {
    key: 'maxQueuedBytes',
    flag: 'max-queued-bytes',
    env: ['GAUNTLET_MAX_QUEUED_BYTES'],
    kind: 'int',
    help: 'bytes of WS/gRPC requests a connection may have waiting; a request beyond is refused',
  },
  {
    key: 'maxUnreadReplyBytes',
    flag: 'max-unread-reply-bytes',
    env: ['GAUNTLET_MAX_UNREAD_REPLY_BYTES'],
    kind: 'int',
    help: 'reply bytes a WS/gRPC client may leave unread before its connection waits for it to read',
  },
  {
    key: 'unreadReplyTimeoutMs',
    flag: 'unread-reply-timeout-ms',
    env: ['GAUNTLET_UNREAD_REPLY_TIMEOUT_MS'],
    kind: 'int',
    help: 'close a WS/gRPC connection whose replies stay unread this long',
  },
  {
    key: 'maxBufferedBytes',
    flag: 'max-buffered-bytes',
    env: ['GAUNTLET_MAX_BUFFERED_BYTES'],
    kind: 'int',
    help: 'waiting requests and unsent replies of all WS/gRPC connections together; a request that would wait beyond it is refused',
  },
  {
    key: 'chromiumPath',
    flag: 'chromium-path',
    valueName: 'PATH',
    env: [],
    kind: 'string',
    help: 'Chromium binary',
    defaultText: "Playwright's browser, else CHROMIUM_PATH, else Debian's",
  },
  {
    key: 'chromiumArgs',
    flag: 'chromium-args',
    env: ['GAUNTLET_CHROMIUM_ARGS'],
    kind: 'list',
    help: 'extra Chromium flags, comma separated',
  },
  {
    key: 'miniwobUrl',
    flag: 'miniwob-url',
    valueName: 'URL',
    env: ['MINIWOB_URL'],
    kind: 'string',
    help: 'real MiniWoB++: base URL of its html/miniwob/ folder (http(s); file:// is served like --miniwob-dir)',
  },
  {
    key: 'miniwobDir',
    flag: 'miniwob-dir',
    valueName: 'DIR',
    env: ['MINIWOB_DIR'],
    kind: 'string',
    help: "real MiniWoB++: its html/miniwob/ folder on this machine, served on the task origin with its parent's core/ and common/",
  },
  {
    key: 'miniwobTasks',
    flag: 'miniwob-tasks',
    env: ['MINIWOB_TASKS'],
    kind: 'list',
    help: 'real MiniWoB++ tasks to offer, comma separated',
    defaultText: "every page in --miniwob-dir, MiniWoB++'s 130 for a URL",
  },
  {
    key: 'benchmark',
    flag: 'benchmark',
    valueName: 'NAME',
    env: ['BROWSERGYM_BENCHMARK'],
    kind: 'string',
    help: 'benchmark bare task names and --task belong to, e.g. miniwob',
    defaultText: 'miniwob, else the only match',
  },
];
