import { isIP } from 'node:net';

/**
 * Whether `hostname` (as `new URL()` spells it: lower case, IPv6 in brackets, numeric IPv4
 * forms already normalised) names this machine: localhost and its subdomains, 127.0.0.0/8,
 * ::1, the unspecified addresses (which connect to loopback) and IPv4-mapped loopback.
 * The env server and everything beside it listen there, so `--allow-origin '*'` never reaches it;
 * only an origin the operator names exactly does.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isLoopbackAddress(host);
}

/** Whether the IP address `address` (no brackets) is loopback or unspecified; false for names. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return address.startsWith('127.') || address === '0.0.0.0';
  if (family !== 6) return false;
  const lower = address.toLowerCase();
  if (lower === '::1' || lower === '::') return true;
  // IPv4-mapped (::ffff:127.0.0.1, which URL spells ::ffff:7f00:1) reach the IPv4 address.
  const mapped = /^::ffff:(.+)$/.exec(lower)?.[1];
  if (!mapped) return false;
  if (isIP(mapped) === 4) return isLoopbackAddress(mapped);
  const high = mapped.split(':')[0] ?? '';
  return /^7f[0-9a-f]{2}$/.test(high) || mapped === '0:0';
}
