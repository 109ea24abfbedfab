import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const K8S = join(REPO, 'k8s');

/** One rendered object, as kustomize wrote it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * `kustomize build DIR` (Debian's kustomize package), else `kubectl kustomize DIR`. Throws with
 * the install command when neither is present, and with kustomize's message when it refuses.
 */
export function renderKustomization(dir: string): K8sObject[] {
  const tools: [string, string[]][] = [
    ['kustomize', ['build', dir]],
    ['kubectl', ['kustomize', dir]],
  ];
  for (const [command, args] of tools) {
    const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') continue;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
    return parseAllDocuments(result.stdout).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${command} wrote invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject;
    });
  }
  throw new Error(
    'rendering k8s/ needs kustomize or kubectl: run scripts/install-deploy-tools.sh (as root), or apt-get install kustomize',
  );
}
