import { z } from 'zod';
import { ValidationError } from '../errors.js';

/**
 * A job names the policy servers it may sample from by name (or by position in the worker's
 * list), never by URL: a worker sends its API key to every server it samples from, so only its
 * operator may say where those are. A name holds no "/", so no URL can pass for one.
 */
export const POLICY_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:[\]-]{0,127}$/;

export const PolicyServerName = z
  .string()
  .regex(POLICY_SERVER_NAME, 'a policy server name: letters, digits, "_", "-", ".", ":" (a name, never a URL)');

/** At most this many policy servers per worker, and per job. */
export const MAX_POLICY_SERVERS = 64;

/** A name, or a 0-based index into the worker's --policy list. */
export const PolicyServerRef = z.union([
  PolicyServerName,
  z
    .number()
    .int()
    .min(0)
    .max(MAX_POLICY_SERVERS - 1),
]);
export type PolicyServerRef = z.infer<typeof PolicyServerRef>;

/** A policy server as an operator configured it. */
export interface NamedPolicyServer {
  name: string;
  url: string;
}

/** A bare URL's name: its host and port (`http://gpu-a:8000/v1` → `gpu-a:8000`). */
export function policyServerName(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`policy server ${JSON.stringify(url)} is not a URL (e.g. http://127.0.0.1:8001)`);
  }
  return parsed.host;
}

/**
 * `NAME=URL` (the operator names the server) or a bare `URL` (named by its host:port). Workers and
 * the trainer both name servers this way, so the names a trainer puts in jobs match the workers'.
 */
export function parsePolicyServer(spec: string): NamedPolicyServer {
  const at = spec.indexOf('=');
  const name = at > 0 ? spec.slice(0, at) : '';
  if (POLICY_SERVER_NAME.test(name)) return { name, url: spec.slice(at + 1) };
  return { name: policyServerName(spec), url: spec };
}
