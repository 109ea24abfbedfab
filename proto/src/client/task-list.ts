/** Options of fetchTaskNames. */
export interface TaskListOptions {
  /** Bearer token of the env server (its HTTP routes need it when the server has one). */
  token?: string | undefined;
  /** Gives up after this long (default 3 s): a start-up check must not hang a command. */
  timeoutMs?: number;
}

/**
 * The task names (`benchmark.name`) an env server serves, from its `GET /tasks`. `url` is the
 * server as the workers address it: `ws://`, `http://` (same port) or their secure forms. gRPC
 * has no task list, so a `grpc://` URL gives undefined; an unreachable server throws.
 */
export async function fetchTaskNames(url: string, options: TaskListOptions = {}): Promise<string[] | undefined> {
  const parsed = new URL(url);
  const scheme = parsed.protocol.replace(/:$/, '');
  if (!/^(https?|wss?)$/.test(scheme)) return undefined;
  const secure = scheme === 'https' || scheme === 'wss';
  const base = `${secure ? 'https' : 'http'}://${parsed.host}${parsed.pathname.replace(/\/(ws)?\/?$/, '')}`;
  const reply = await fetch(`${base}/tasks`, {
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    signal: AbortSignal.timeout(options.timeoutMs ?? 3_000),
  });
  if (!reply.ok) throw new Error(`GET ${base}/tasks answered ${reply.status}`);
  const body = (await reply.json()) as { tasks?: { name?: unknown }[] };
  if (!Array.isArray(body.tasks)) throw new Error(`GET ${base}/tasks is not a task list`);
  return body.tasks.map((t) => t.name).filter((name): name is string => typeof name === 'string');
}
