import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled file of one of this package's worker entry points. worker_threads runs
 * JavaScript, and tests import the package from its TypeScript sources, so a worker always runs
 * from dist/ (this file sits two levels below the package root in src/ and in dist/ alike).
 */
export function compiledWorkerFile(pathInPackage: string): URL {
  const url = new URL(`../../dist/${pathInPackage}`, import.meta.url);
  if (!existsSync(url)) throw new Error(`${fileURLToPath(url)} is missing: build the trainer first (npm run build)`);
  return url;
}
