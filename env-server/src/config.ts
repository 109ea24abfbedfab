import { ObservationOptions } from '@gauntlet/proto';

/** How a step waits after its actions (actions/settle/settle-effects.ts): for what they set in motion, or a fixed 0.5 s. */
export type SettleMode = 'smart' | 'browsergym';
export const SETTLE_MODES: readonly SettleMode[] = ['smart', 'browsergym'];

/** Everything the env server can be told, from flags and environment variables. */
export interface ServerConfig {
  host: string;
  port: number;
  /** gRPC port (EnvService, health, reflection); 0 picks a free port. */
  grpcPort: number;
  /** False with `--grpc-port off`: no gRPC server at all (a Space routes only its HTTP port). */
  grpcEnabled: boolean;
  /** PEM files for gRPC over TLS; both or neither. */
  grpcTlsCert: string | undefined;
  grpcTlsKey: string | undefined;
  /** Largest gRPC message the server accepts (RESOURCE_EXHAUSTED beyond). */
  grpcMessageLimitBytes: number;
  maxSessions: number;
  /** Idle sessions are closed after this long without a message (ms); 0 disables the reaper. */
  idleTtlMs: number;
  headless: boolean;
  /**
   * Whether a reset may ask for a visible browser (`browser.headed` / `browser.record`): off by
   * default, so a remote client cannot open windows on the server's display.
   */
  allowHeaded: boolean;
  /** Debugging: the headed browser also serves CDP on this loopback port (0 = not), so a test can drive it. */
  headedCdpPort: number;
  viewport: { width: number; height: number };
  /** How a step waits after its actions: for what they set in motion, or BrowserGym's fixed 0.5 s. */
  settle: SettleMode;
  /** Per bid action timeout (BROWSERGYM_TIMEOUT is the page default timeout). */
  actionTimeoutMs: number;
  pageTimeoutMs: number;
  defaultTask: string;
  defaultObservation: ObservationOptions;
  /** Warm contexts kept ready for new sessions. */
  warmContexts: number;
  /** Extra origins `goto` may reach besides the task origins (`*` = anything). */
  allowedOrigins: string[];
  /** Whether `goto` may open data: and blob: URLs (they run page JavaScript the agent wrote). */
  allowDataUrls: boolean;
  allowScriptActions: boolean;
  /** Most tabs a session may have open; pages opened beyond it (window.open, target=_blank) are closed. */
  maxTabs: number;
  /** Longest action string a step parses; longer ones are an action error, never parsed. */
  maxActionChars: number;
  /** Most calls one step may run (a multi-action string); more is an action error, nothing runs. */
  maxCallsPerStep: number;
  /** Most characters one keyboard_type may type; more is an action error, nothing typed. */
  maxTypedChars: number;
  /** The only folder `upload_file` may read from (symlinks resolved); undefined = uploads off. */
  uploadDir: string | undefined;
  bearerToken: string | undefined;
  bodyLimitBytes: number;
  wsFrameLimitBytes: number;
  /** Requests one WS/gRPC connection may have waiting behind the one being answered; more are refused. */
  maxQueuedRequests: number;
  /** Bytes of waiting requests one connection may hold; a request beyond is refused. */
  maxQueuedBytes: number;
  /** Reply bytes a client may leave unread before its connection stops answering until they drain. */
  maxUnreadReplyBytes: number;
  /** How long unread replies may stay over `maxUnreadReplyBytes` before the connection is closed (ms). */
  unreadReplyTimeoutMs: number;
  /** Waiting requests and unsent replies of every connection together; a request beyond is refused. */
  maxBufferedBytes: number;
  /** Base URL of a served MiniWoB++ `html/miniwob/` folder (task page = base + name + `.html`). */
  miniwobUrl: string | undefined;
  /** A local MiniWoB++ `html/miniwob/` folder the server serves on the task origin itself. */
  miniwobDir: string | undefined;
  /** Real MiniWoB++ task names to offer; empty = every page found (dir) or MiniWoB++'s list (URL). */
  miniwobTasks: string[];
  /** BROWSERGYM_BENCHMARK: bare task names (and the default task) mean this benchmark's task. */
  benchmark: string | undefined;
  /** Extra Chromium command-line flags appended to ours. */
  chromiumArgs: string[];
  /** A Chromium binary to use instead of the discovered one. */
  chromiumPath: string | undefined;
}

export const DEFAULTS: ServerConfig = {
  // Loopback unless asked: a server started from a shell is not exposed to the network by
  // accident. The Docker images set HOST=0.0.0.0.
  host: '127.0.0.1',
  port: 8000,
  grpcPort: 50051,
  grpcEnabled: true,
  grpcTlsCert: undefined,
  grpcTlsKey: undefined,
  grpcMessageLimitBytes: 4 * 1024 * 1024,
  maxSessions: 8,
  idleTtlMs: 10 * 60_000,
  headless: true,
  allowHeaded: false,
  headedCdpPort: 0,
  viewport: { width: 1280, height: 720 },
  settle: 'smart',
  actionTimeoutMs: 500,
  pageTimeoutMs: 10_000,
  defaultTask: 'click-test',
  defaultObservation: ObservationOptions.parse({}),
  warmContexts: 2,
  allowedOrigins: [],
  allowDataUrls: false,
  allowScriptActions: false,
  maxTabs: 8,
  maxActionChars: 32 * 1024,
  maxCallsPerStep: 16,
  maxTypedChars: 4_096,
  uploadDir: undefined,
  bearerToken: undefined,
  bodyLimitBytes: 1024 * 1024,
  wsFrameLimitBytes: 4 * 1024 * 1024,
  maxQueuedRequests: 16,
  maxQueuedBytes: 8 * 1024 * 1024,
  maxUnreadReplyBytes: 2 * 1024 * 1024,
  unreadReplyTimeoutMs: 30_000,
  maxBufferedBytes: 64 * 1024 * 1024,
  miniwobUrl: undefined,
  miniwobDir: undefined,
  miniwobTasks: [],
  benchmark: undefined,
  chromiumArgs: [],
  chromiumPath: undefined,
};

/** One row per setting: the flag, the variables it reads (first wins), and how to parse it. */
interface Setting {
  key: keyof ServerConfig | 'viewportWidth' | 'viewportHeight' | 'screenshot';
  flag: string;
  env: string[];
  /** `port`: an integer, or `off` for a server that is not started; `choice`: one of `choices`. */
  kind: 'int' | 'port' | 'bool' | 'string' | 'list' | 'choice';
  choices?: readonly string[];
  help: string;
}

export const SETTINGS: Setting[] = [
  {
    key: 'port',
    flag: 'port',
    env: ['PORT', 'BROWSERGYM_PORT'],
    kind: 'int',
    help: 'HTTP/WebSocket port; 0 picks a free one (default 8000)',
  },
  {
    key: 'grpcPort',
    flag: 'grpc-port',
    env: ['GRPC_PORT'],
    kind: 'port',
    help: 'gRPC port: EnvService, grpc.health.v1, reflection (default 50051); off = no gRPC server',
  },
  {
    key: 'grpcTlsCert',
    flag: 'grpc-tls-cert',
    env: ['GRPC_TLS_CERT'],
    kind: 'string',
    help: 'PEM certificate chain file: serve gRPC over TLS (with --grpc-tls-key)',
  },
  {
    key: 'grpcTlsKey',
    flag: 'grpc-tls-key',
    env: ['GRPC_TLS_KEY'],
    kind: 'string',
    help: 'PEM private key file for --grpc-tls-cert',
  },
  {
    key: 'grpcMessageLimitBytes',
    flag: 'grpc-message-limit',
    env: ['GAUNTLET_GRPC_MESSAGE_LIMIT'],
    kind: 'int',
    help: 'max gRPC request message in bytes (default 4194304)',
  },
  {
    key: 'host',
    flag: 'host',
    env: ['HOST'],
    kind: 'string',
    help: 'interface to listen on (default 127.0.0.1; 0.0.0.0 = every interface, as the Docker images set)',
  },
  {
    key: 'maxSessions',
    flag: 'max-sessions',
    env: ['MAX_CONCURRENT_ENVS'],
    kind: 'int',
    help: 'concurrent sessions before CAPACITY_REACHED (default 8)',
  },
  {
    key: 'idleTtlMs',
    flag: 'idle-ttl-ms',
    env: ['GAUNTLET_IDLE_TTL_MS'],
    kind: 'int',
    help: 'close sessions idle this long; 0 = never (default 600000)',
  },
  {
    key: 'headless',
    flag: 'headless',
    env: ['BROWSERGYM_HEADLESS'],
    kind: 'bool',
    help: 'run Chromium headless (default true)',
  },
  {
    key: 'allowHeaded',
    flag: 'allow-headed',
    env: ['GAUNTLET_ALLOW_HEADED'],
    kind: 'bool',
    help: 'let a reset ask for a visible (headed) browser or a recording session; needs a display (default false)',
  },
  {
    key: 'headedCdpPort',
    flag: 'headed-cdp-port',
    env: [],
    kind: 'int',
    help: 'debugging: the headed browser also serves the DevTools protocol on this loopback port (default 0: off)',
  },
  {
    key: 'viewportWidth',
    flag: 'viewport-width',
    env: ['BROWSERGYM_VIEWPORT_WIDTH'],
    kind: 'int',
    help: 'viewport width in px (default 1280)',
  },
  {
    key: 'viewportHeight',
    flag: 'viewport-height',
    env: ['BROWSERGYM_VIEWPORT_HEIGHT'],
    kind: 'int',
    help: 'viewport height in px (default 720)',
  },
  {
    key: 'pageTimeoutMs',
    flag: 'timeout-ms',
    env: ['BROWSERGYM_TIMEOUT'],
    kind: 'int',
    help: 'page load / navigation timeout in ms (default 10000)',
  },
  {
    key: 'settle',
    flag: 'settle',
    env: ['GAUNTLET_SETTLE'],
    kind: 'choice',
    choices: SETTLE_MODES,
    help: "after a step's actions: smart = wait for the timers, frames, requests and transitions they started (at most 0.5 s), browsergym = BrowserGym's fixed 0.5 s (default smart)",
  },
  {
    key: 'actionTimeoutMs',
    flag: 'action-timeout-ms',
    env: ['GAUNTLET_ACTION_TIMEOUT_MS'],
    kind: 'int',
    help: 'per bid-action timeout in ms before the forced retry (default 500)',
  },
  {
    key: 'defaultTask',
    flag: 'task',
    env: ['BROWSERGYM_TASK_NAME'],
    kind: 'string',
    help: 'task used when reset names none (default click-test)',
  },
  {
    key: 'screenshot',
    flag: 'screenshot',
    env: ['BROWSERGYM_INCLUDE_SCREENSHOT'],
    kind: 'bool',
    help: 'include the RGB screenshot by default (default false)',
  },
  {
    key: 'warmContexts',
    flag: 'warm',
    env: ['GAUNTLET_WARM_CONTEXTS'],
    kind: 'int',
    help: 'browser contexts kept warm for new sessions (default 2)',
  },
  {
    key: 'allowedOrigins',
    flag: 'allow-origin',
    env: ['GAUNTLET_ALLOWED_ORIGINS'],
    kind: 'list',
    help: 'extra origins pages may reach (every redirect hop included), comma separated; * allows any host but loopback (default: task origins only)',
  },
  {
    key: 'allowDataUrls',
    flag: 'allow-data-urls',
    env: ['GAUNTLET_ALLOW_DATA_URLS'],
    kind: 'bool',
    help: 'let goto() open data: and blob: URLs, which run page JavaScript the agent wrote (default false)',
  },
  {
    key: 'uploadDir',
    flag: 'upload-dir',
    env: ['GAUNTLET_UPLOAD_DIR'],
    kind: 'string',
    help: 'the folder upload_file may read files from (default: none, uploads off)',
  },
  {
    key: 'allowScriptActions',
    flag: 'allow-script-actions',
    env: ['GAUNTLET_ALLOW_SCRIPT_ACTIONS'],
    kind: 'bool',
    help: 'enable script-evaluating actions (default false)',
  },
  {
    key: 'maxTabs',
    flag: 'max-tabs',
    env: ['GAUNTLET_MAX_TABS'],
    kind: 'int',
    help: 'tabs a session may have open, pages opened by pages included (default 8)',
  },
  {
    key: 'maxActionChars',
    flag: 'max-action-chars',
    env: ['GAUNTLET_MAX_ACTION_CHARS'],
    kind: 'int',
    help: 'longest action string a step accepts, in characters (default 32768)',
  },
  {
    key: 'maxCallsPerStep',
    flag: 'max-calls-per-step',
    env: ['GAUNTLET_MAX_CALLS_PER_STEP'],
    kind: 'int',
    help: 'most action calls one step may run (default 16)',
  },
  {
    key: 'maxTypedChars',
    flag: 'max-typed-chars',
    env: ['GAUNTLET_MAX_TYPED_CHARS'],
    kind: 'int',
    help: 'most characters one keyboard_type may type (default 4096)',
  },
  {
    key: 'bearerToken',
    flag: 'token',
    env: ['GAUNTLET_TOKEN'],
    kind: 'string',
    help: 'require "Authorization: Bearer <token>" on every route but /health',
  },
  {
    key: 'bodyLimitBytes',
    flag: 'body-limit',
    env: ['GAUNTLET_BODY_LIMIT'],
    kind: 'int',
    help: 'max HTTP body in bytes (default 1048576)',
  },
  {
    key: 'wsFrameLimitBytes',
    flag: 'frame-limit',
    env: ['GAUNTLET_WS_FRAME_LIMIT'],
    kind: 'int',
    help: 'max WebSocket frame in bytes, after decompression (default 4194304)',
  },
  {
    key: 'maxQueuedRequests',
    flag: 'max-queued-requests',
    env: ['GAUNTLET_MAX_QUEUED_REQUESTS'],
    kind: 'int',
    help: 'WS/gRPC requests a connection may send ahead of its replies; more are refused with PAYLOAD_TOO_LARGE, twice as many close it (default 16)',
  },
  {
    key: 'maxQueuedBytes',
    flag: 'max-queued-bytes',
    env: ['GAUNTLET_MAX_QUEUED_BYTES'],
    kind: 'int',
    help: 'bytes of WS/gRPC requests a connection may have waiting; a request beyond is refused (default 8388608)',
  },
  {
    key: 'maxUnreadReplyBytes',
    flag: 'max-unread-reply-bytes',
    env: ['GAUNTLET_MAX_UNREAD_REPLY_BYTES'],
    kind: 'int',
    help: 'reply bytes a WS/gRPC client may leave unread before its connection waits for it to read (default 2097152)',
  },
  {
    key: 'unreadReplyTimeoutMs',
    flag: 'unread-reply-timeout-ms',
    env: ['GAUNTLET_UNREAD_REPLY_TIMEOUT_MS'],
    kind: 'int',
    help: 'close a WS/gRPC connection whose replies stay unread this long (default 30000)',
  },
  {
    key: 'maxBufferedBytes',
    flag: 'max-buffered-bytes',
    env: ['GAUNTLET_MAX_BUFFERED_BYTES'],
    kind: 'int',
    help: 'waiting requests and unsent replies of all WS/gRPC connections together; a request that would wait beyond it is refused (default 67108864)',
  },
  {
    key: 'chromiumPath',
    flag: 'chromium-path',
    env: [],
    kind: 'string',
    help: "Chromium binary (default: Playwright's browser, else CHROMIUM_PATH, else Debian's)",
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
    env: ['MINIWOB_URL'],
    kind: 'string',
    help: 'real MiniWoB++: base URL of its html/miniwob/ folder (http(s); file:// is served like --miniwob-dir)',
  },
  {
    key: 'miniwobDir',
    flag: 'miniwob-dir',
    env: ['MINIWOB_DIR'],
    kind: 'string',
    help: "real MiniWoB++: its html/miniwob/ folder on this machine, served on the task origin with its parent's core/ and common/",
  },
  {
    key: 'miniwobTasks',
    flag: 'miniwob-tasks',
    env: ['MINIWOB_TASKS'],
    kind: 'list',
    help: "real MiniWoB++ tasks to offer, comma separated (default: every page in --miniwob-dir, MiniWoB++'s 130 for a URL)",
  },
  {
    key: 'benchmark',
    flag: 'benchmark',
    env: ['BROWSERGYM_BENCHMARK'],
    kind: 'string',
    help: 'benchmark bare task names and --task belong to, e.g. miniwob (default: miniwob, else the only match)',
  },
];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Flags win over environment variables, which win over defaults. */
export function resolveConfig(
  flags: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const config: ServerConfig = structuredClone(DEFAULTS);
  for (const setting of SETTINGS) {
    const fromFlag = flags[setting.flag];
    const envName = setting.env.find((name) => env[name] !== undefined && env[name] !== '');
    const raw = fromFlag !== undefined ? fromFlag : envName ? env[envName] : undefined;
    if (raw === undefined) continue;
    const source = fromFlag !== undefined ? `--${setting.flag}` : envName!;
    apply(config, setting, parseValue(setting, raw, source));
  }
  if (Boolean(config.grpcTlsCert) !== Boolean(config.grpcTlsKey))
    throw new ConfigError('--grpc-tls-cert and --grpc-tls-key go together (GRPC_TLS_CERT, GRPC_TLS_KEY)');
  return config;
}

function parseValue(setting: Setting, raw: string | boolean, source: string): number | boolean | string | string[] {
  const text = String(raw).trim();
  switch (setting.kind) {
    case 'port': {
      if (/^off$/i.test(text)) return 'off';
      if (!/^\d+$/.test(text))
        throw new ConfigError(`${source} must be a port number or off (got ${JSON.stringify(text)})`);
      return Number(text);
    }
    case 'int': {
      if (!/^\d+$/.test(text))
        throw new ConfigError(`${source} must be a non-negative integer (got ${JSON.stringify(text)})`);
      return Number(text);
    }
    case 'bool': {
      if (raw === true || /^(1|true|yes|on)$/i.test(text)) return true;
      if (/^(0|false|no|off)$/i.test(text)) return false;
      throw new ConfigError(`${source} must be true or false (got ${JSON.stringify(text)})`);
    }
    case 'list':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'string':
      return text;
    case 'choice': {
      const choices = setting.choices ?? [];
      if (!choices.includes(text))
        throw new ConfigError(`${source} must be one of ${choices.join(', ')} (got ${JSON.stringify(text)})`);
      return text;
    }
  }
}

function apply(config: ServerConfig, setting: Setting, value: number | boolean | string | string[]): void {
  switch (setting.key) {
    case 'viewportWidth':
      config.viewport.width = value as number;
      return;
    case 'viewportHeight':
      config.viewport.height = value as number;
      return;
    case 'screenshot':
      config.defaultObservation.screenshot = value ? 'rgb' : 'none';
      return;
    case 'grpcPort':
      config.grpcEnabled = value !== 'off';
      if (value === 'off') return;
      config.grpcPort = value as number;
      break;
    default:
      (config as unknown as Record<string, unknown>)[setting.key] = value;
  }
  // 0 = any free port; the "listening on" line names the one taken.
  if (setting.key === 'port' && (config.port < 0 || config.port > 65535))
    throw new ConfigError(`port must be 0..65535 (got ${config.port})`);
  if (setting.key === 'grpcPort' && config.grpcPort > 65535)
    throw new ConfigError(`GRPC_PORT must be 0..65535 (got ${config.grpcPort})`);
  if (setting.key === 'maxSessions' && config.maxSessions < 1)
    throw new ConfigError('MAX_CONCURRENT_ENVS must be at least 1');
  if (setting.key === 'maxQueuedRequests' && config.maxQueuedRequests < 1)
    throw new ConfigError('--max-queued-requests (GAUNTLET_MAX_QUEUED_REQUESTS) must be at least 1');
  if (setting.key === 'maxTabs' && config.maxTabs < 1)
    throw new ConfigError('--max-tabs (GAUNTLET_MAX_TABS) must be at least 1');
}
