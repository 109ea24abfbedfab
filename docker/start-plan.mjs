// What the trainer image's entrypoint runs, decided from the command line and the environment
// (kept apart from entrypoint.mjs so a test can check it without starting anything).

/** The images' programs, and which of their commands listen or connect with a secret. */
export const TOOLS = {
  'gauntlet-trainer': {
    bin: '/app/trainer/bin/cli.js',
    // Commands serving the policy API: they bind HOST unless --host is given.
    listening: { serve: '--host', grpo: '--host' },
  },
  'gauntlet-worker': {
    bin: '/app/rollout-worker/bin/cli.js',
    // `run` serves /metrics and /health; it binds HOST unless --metrics-host is given.
    listening: { run: '--metrics-host' },
  },
};

/** Variables any of which carries the deployment's secret (the policy API key, the env servers' token). */
const TOKEN_VARIABLES = ['GAUNTLET_TOKEN', 'VLLM_API_KEY'];

/**
 * @param {string} tool gauntlet-trainer or gauntlet-worker
 * @param {string[]} args the command line after the tool
 * @param {Record<string, string | undefined>} env
 * @returns {{ bin: string, args: string[] } | { exitCode: number, message: string }}
 */
export function planStart(tool, args, env) {
  const spec = TOOLS[tool];
  if (!spec) return { exitCode: 2, message: `unknown tool ${JSON.stringify(tool)} (${Object.keys(TOOLS).join(', ')})` };
  const [command] = args;
  const hostFlag = spec.listening[command];
  const asksHelp = args.includes('--help') || args.includes('-h');
  if (!hostFlag || asksHelp) return { bin: spec.bin, args };

  const required = (env.GAUNTLET_REQUIRE_TOKEN ?? '').trim();
  if (!/^(1|true|yes|on|0|false|no|off|)$/i.test(required))
    return {
      exitCode: 2,
      message: `GAUNTLET_REQUIRE_TOKEN must be 1 or 0 (got ${JSON.stringify(required.slice(0, 40))})`,
    };
  const hasToken = TOKEN_VARIABLES.some((name) => (env[name] ?? '') !== '') || args.includes('--api-key');
  if (/^(1|true|yes|on)$/i.test(required) && !hasToken)
    return {
      exitCode: 2,
      message:
        `GAUNTLET_REQUIRE_TOKEN=1 but no token is set: set GAUNTLET_TOKEN (or VLLM_API_KEY) for ${tool} ${command}; ` +
        'the policy API then requires "Authorization: Bearer <token>" and workers send it to the env servers and the policy.',
    };

  // Inside a container the server must listen beyond loopback (a shell start binds 127.0.0.1).
  const given = args.some((arg) => arg === hostFlag || arg.startsWith(`${hostFlag}=`));
  const host = env.HOST || '0.0.0.0';
  const planned = given ? args : [...args, hostFlag, host];
  return { bin: spec.bin, args: planned };
}
