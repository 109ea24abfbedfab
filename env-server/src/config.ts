import { ObservationOptions } from '@gauntlet/proto';
import { convertOption, UsageError, type OptionSpec, type OptionTable } from '@gauntlet/proto/cli';
import { SETTINGS, type Setting, type SettleMode } from './settings.js';

export { SETTINGS, SETTLE_MODES, type SettleMode } from './settings.js';

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

/** Fields apply() sets itself: parts of `viewport` and of `defaultObservation`. */
type MappedKey = 'viewportWidth' | 'viewportHeight' | 'screenshot';
type SettingKey = (typeof SETTINGS)[number]['key'];
// Fails to compile when a setting's key names no ServerConfig field (a typo would set nothing).
const settingKeysNameFields: Record<Exclude<SettingKey, keyof ServerConfig | MappedKey>, never> = {};
void settingKeysNameFields;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A port setting's value: 0–65535 (0 = any free port), or `off` for no server at all. */
const PORT_OR_OFF = {
  want: 'a port number (0-65535) or off',
  test: (value: string) => /^off$/i.test(value.trim()) || (/^\d+$/.test(value.trim()) && Number(value) <= 65535),
};

/**
 * SETTINGS as CLI-kit rows: what `serve --help` and `tasks --help` list, and what the kit and
 * resolveConfig check each value against (one conversion, from the kit).
 */
export const SETTING_OPTIONS: OptionTable = Object.fromEntries(SETTINGS.map((s) => [s.flag, settingOption(s)]));

function settingOption(setting: Setting): OptionSpec {
  const shown = setting.defaultText ?? defaultText(setting);
  const common = {
    help: setting.help,
    env: setting.env,
    ...(setting.valueName ? { valueName: setting.valueName } : {}),
  };
  switch (setting.kind) {
    case 'bool':
      return { ...common, kind: 'boolean', default: shown === 'true' };
    case 'int':
      return {
        ...common,
        kind: 'integer',
        min: setting.min ?? 0,
        ...(setting.max === undefined ? {} : { max: setting.max }),
        ...(shown ? { defaultText: shown } : {}),
      };
    case 'list':
      return { ...common, kind: 'list', ...(shown ? { defaultText: shown } : {}) };
    case 'choice':
      return { ...common, kind: 'string', choices: setting.choices ?? [], ...(shown ? { defaultText: shown } : {}) };
    case 'port':
      return { ...common, kind: 'string', accepts: PORT_OR_OFF, ...(shown ? { defaultText: shown } : {}) };
    case 'string':
      return { ...common, kind: 'string', ...(shown ? { defaultText: shown } : {}) };
  }
}

/** The default of a setting as DEFAULTS holds it, for --help (undefined and empty say nothing). */
function defaultText(setting: Setting): string | undefined {
  const value =
    setting.key === 'viewportWidth'
      ? DEFAULTS.viewport.width
      : setting.key === 'viewportHeight'
        ? DEFAULTS.viewport.height
        : setting.key === 'screenshot'
          ? DEFAULTS.defaultObservation.screenshot === 'rgb'
          : DEFAULTS[setting.key as keyof ServerConfig];
  return typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value)
    ? String(value)
    : undefined;
}

/**
 * Flags win over environment variables (the first of a setting's names that is set), which win
 * over defaults. Flags may be the strings of a command line or the kit's converted values.
 */
export function resolveConfig(
  flags: Record<string, string | boolean | number | string[] | undefined>,
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

function parseValue(
  setting: Setting,
  raw: string | boolean | number | string[],
  source: string,
): number | boolean | string | string[] {
  const value = typeof raw === 'string' ? raw.trim() : raw;
  if (setting.kind === 'port') {
    const text = String(value);
    if (!PORT_OR_OFF.test(text))
      throw new ConfigError(`${source} must be ${PORT_OR_OFF.want} (got ${JSON.stringify(text)})`);
    return /^off$/i.test(text) ? 'off' : Number(text);
  }
  try {
    return convertOption(setting.flag, SETTING_OPTIONS[setting.flag]!, value, source) as number | boolean | string;
  } catch (error) {
    if (error instanceof UsageError) throw new ConfigError(error.message);
    throw error;
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
      // 0 = any free port; the "listening on" line names the one taken.
      config.grpcPort = value as number;
      return;
    default:
      (config as unknown as Record<string, unknown>)[setting.key] = value;
  }
}
