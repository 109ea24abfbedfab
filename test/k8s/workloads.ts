import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, type K8sObject } from './render.js';

export interface Probe {
  httpGet?: { path: string; port: string | number };
  exec?: { command: string[] };
  tcpSocket?: { port: string | number };
}

export interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  envFrom?: { configMapRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
}

export interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}

export interface Workload {
  object: K8sObject;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  pod: PodSpec;
}

/** Deployments and StatefulSets with their pod template. */
export function workloads(objects: K8sObject[]): Workload[] {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
    .map((object) => {
      const template = (object.spec as { template: { metadata: Workload; spec: PodSpec } }).template;
      const metadata = template.metadata as unknown as {
        labels?: Record<string, string>;
        annotations?: Record<string, string>;
      };
      return { object, labels: metadata.labels ?? {}, annotations: metadata.annotations ?? {}, pod: template.spec };
    });
}

export function workload(objects: K8sObject[], name: string): Workload {
  const found = workloads(objects).find((w) => w.object.metadata.name === name);
  if (!found) throw new Error(`no workload named ${name}`);
  return found;
}

export function byKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

/** Kubernetes quantities (`640Mi`, `1Gi`, `250m`, `2`) as bytes or cores. */
export function quantity(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti)?$/.exec(text);
  if (!match) throw new Error(`unsupported quantity ${text}`);
  const scale = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * scale;
}

/**
 * The ports an image's Dockerfile target EXPOSEs, following `FROM <stage> AS <target>` chains
 * within the file.
 */
export function exposedPorts(dockerfile: string, target: string): number[] {
  const stages = new Map<string, { from: string; ports: number[] }>();
  let current: { from: string; ports: number[] } | undefined;
  for (const line of readFileSync(join(REPO, dockerfile), 'utf8').split('\n')) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) {
      current = { from: from[1]!, ports: [] };
      if (from[2]) stages.set(from[2], current);
      continue;
    }
    const expose = /^EXPOSE\s+(.+)$/i.exec(line);
    if (expose && current) current.ports.push(...expose[1]!.split(/\s+/).map((p) => Number.parseInt(p, 10)));
  }
  const ports: number[] = [];
  for (let stage = stages.get(target); stage; stage = stages.get(stage.from)) ports.push(...stage.ports);
  if (!stages.has(target)) throw new Error(`${dockerfile} has no stage ${target}`);
  return ports;
}
