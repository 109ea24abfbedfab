import { InfraError } from '@gauntlet/proto';
import type { Progress } from '@gauntlet/proto/cli';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import { startLocalEnv, type LocalEnv } from './local-env.js';

/** Why no window can open on this machine (checked before a local env server is started for one). */
export function displayMissing(flag: string, env: NodeJS.ProcessEnv = process.env): InfraError | undefined {
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return undefined;
  return new InfraError(
    `${flag} needs a display to show the browser and there is none (DISPLAY is not set): run on a desktop, or under a virtual display with \`xvfb-run gauntlet-agent …\``,
  );
}

export interface OpenedEnv {
  env: EnvClient;
  /** `local` for a server this process started, else the URL. */
  where: string;
  close(): Promise<void>;
}

/**
 * The env a command talks to: `url` when given, else a local `gauntlet-env serve` child — with
 * `--allow-headed` when the command needs a visible browser (a window opens only on this machine).
 */
export async function openEnv(options: {
  url: string | undefined;
  token: string | undefined;
  bin: string | undefined;
  headed: boolean;
  /** More flags for a local server (an open-web task's --allow-origin). */
  envArgs?: string[] | undefined;
  progress: Progress;
}): Promise<OpenedEnv> {
  let local: LocalEnv | undefined;
  if (!options.url)
    local = await startLocalEnv({
      ...(options.bin ? { bin: options.bin } : {}),
      progress: options.progress,
      extraArgs: [...(options.headed ? ['--allow-headed'] : []), ...(options.envArgs ?? [])],
    });
  const env = createEnvClient(options.url ?? local!.url, { token: options.token, callTimeoutMs: 120_000 });
  return {
    env,
    where: local ? 'local' : options.url!,
    async close() {
      await env.close().catch(() => undefined);
      await local?.stop();
    },
  };
}
