// Docker HEALTHCHECK for the env server images: exit 0 when GET /health answers 200.
// Reads the same variables as the server (PORT, else BROWSERGYM_PORT, else 8000; HOST) so a
// container started with another port or interface is still checked where it listens.
const port = process.env.PORT || process.env.BROWSERGYM_PORT || '8000';
const host = !process.env.HOST || ['0.0.0.0', '::'].includes(process.env.HOST) ? '127.0.0.1' : process.env.HOST;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/health`;

try {
  // Inside the image's HEALTHCHECK --timeout=30s. On a saturated host a serving env server was
  // seen answering /health after more than the 2.5 s this allowed (while its episodes went on).
  const reply = await fetch(url, { signal: AbortSignal.timeout(20_000) });
  process.exit(reply.ok ? 0 : 1);
} catch {
  process.exit(1);
}
