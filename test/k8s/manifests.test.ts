// k8s/ rendered with kustomize, every object checked against the Kubernetes and KEDA schemas,
// then the deployment's invariants: probes, limits and non-root everywhere; ports and
// environment that the images really have; KEDA scaling the queue the workers consume; network
// policies letting only workers and the trainer reach the env servers and Redis.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUEUES } from '@gauntlet/proto/rollout';
import { schemaProblem } from './models.js';
import { K8S, REPO, renderKustomization, type K8sObject } from './render.js';
import { byKind, exposedPorts, quantity, workload, workloads, type Container } from './workloads.js';

const OVERLAYS = ['cpu', 'gpu'] as const;
const rendered = Object.fromEntries(OVERLAYS.map((o) => [o, renderKustomization(join(K8S, 'overlays', o))])) as Record<
  (typeof OVERLAYS)[number],
  K8sObject[]
>;

/** Which Dockerfile target each of our images is built from. */
const IMAGES: Record<string, { dockerfile: string; target: string }> = {
  'gauntlet-env': { dockerfile: 'Dockerfile.env', target: 'env' },
  'gauntlet-trainer': { dockerfile: 'Dockerfile.trainer', target: 'trainer' },
  'gauntlet-rollout-worker': { dockerfile: 'Dockerfile.trainer', target: 'rollout-worker' },
};

/** The help text of the program each image runs: every variable a manifest sets must appear in it. */
const help = (args: string[]) => execFileSync(process.execPath, args, { cwd: REPO, encoding: 'utf8' });
const HELP: Record<string, string> = {
  'gauntlet-env': help(['env-server/bin/cli.js', 'serve', '--help']),
  'gauntlet-rollout-worker': help(['rollout-worker/bin/cli.js', 'run', '--help']),
  'gauntlet-trainer': help(['trainer/bin/cli.js', 'grpo', '--help']),
};
/** Read by every image itself (docker/entrypoint.mjs, the env server's token guard). */
const IMAGE_ENV = ['GAUNTLET_REQUIRE_TOKEN'];
/** Only used to build REDIS_URL and by KEDA's trigger (addressFromEnv). */
const DEPLOYMENT_ENV = ['REDIS_ADDRESS'];

// The measured memory of the env server (docs/env-server.md): the server and Chromium with one
// session about 220 MB; each further session 14.7 MB measured, 40 MB the bound we hold it to.
const ENV_BASE_BYTES = 220 * 2 ** 20;
const ENV_SESSION_BYTES = 40 * 2 ** 20;

const imageName = (image: string) => image.replace(/:[^/]*$/, '');
const configMap = (objects: K8sObject[]) =>
  byKind(objects, 'ConfigMap')[0] as K8sObject & { data: Record<string, string> };

function configMapNamed(objects: K8sObject[], name: string): { data: Record<string, string> } {
  const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
  if (!map) throw new Error(`no ConfigMap ${name} (referenced by a container)`);
  return map as unknown as { data: Record<string, string> };
}

/** A container's environment: envFrom ConfigMaps, then env with ConfigMap references and $(VAR)s resolved (secrets: undefined). */
function environment(objects: K8sObject[], container: Container): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const from of container.envFrom ?? [])
    for (const [key, value] of Object.entries(configMapNamed(objects, from.configMapRef!.name).data))
      env.set(key, value);
  for (const entry of container.env ?? []) {
    const ref = (entry.valueFrom as { configMapKeyRef?: { name: string; key: string } } | undefined)?.configMapKeyRef;
    const value = ref
      ? configMapNamed(objects, ref.name).data[ref.key]
      : entry.value?.replace(/\$\((\w+)\)/g, (_, name: string) => env.get(name) ?? `$(${name})`);
    env.set(entry.name, value);
  }
  return env;
}

describe.each(OVERLAYS)('k8s/overlays/%s', (overlay) => {
  const objects = rendered[overlay];

  it('renders objects that all validate against the Kubernetes and KEDA schemas', () => {
    expect(objects.length).toBeGreaterThan(10);
    const problems = objects
      .map((o) => [`${o.kind}/${o.metadata.name}`, schemaProblem(o)] as const)
      .filter(([, problem]) => problem !== undefined);
    expect(problems).toEqual([]);
    for (const kind of ['Deployment', 'StatefulSet', 'Service', 'ScaledObject', 'PodDisruptionBudget', 'NetworkPolicy'])
      expect(byKind(objects, kind).length, kind).toBeGreaterThan(0);
    for (const object of objects.filter((o) => o.kind !== 'Namespace'))
      expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe('gauntlet');
  });

  it('gives every container probes, requests and limits, and runs every pod as non-root', () => {
    for (const { object, pod } of workloads(objects)) {
      const where = `${object.kind}/${object.metadata.name}`;
      expect(pod.securityContext?.runAsNonRoot, where).toBe(true);
      expect(pod.securityContext?.runAsUser, where).toBeGreaterThan(0);
      for (const container of pod.containers) {
        const at = `${where} container ${container.name}`;
        expect(container.readinessProbe, `${at} readinessProbe`).toBeDefined();
        expect(container.livenessProbe, `${at} livenessProbe`).toBeDefined();
        for (const resource of ['cpu', 'memory']) {
          expect(container.resources?.requests?.[resource], `${at} requests.${resource}`).toBeDefined();
          expect(container.resources?.limits?.[resource], `${at} limits.${resource}`).toBeDefined();
          expect(quantity(container.resources!.limits![resource]!)).toBeGreaterThanOrEqual(
            quantity(container.resources!.requests![resource]!),
          );
        }
        expect(container.securityContext?.allowPrivilegeEscalation, at).toBe(false);
        expect(container.securityContext?.readOnlyRootFilesystem, at).toBe(true);
        expect(container.securityContext?.capabilities?.drop, at).toEqual(['ALL']);
      }
    }
  });

  it("opens only ports the images expose, probes them, and sets only variables the images' programs read", () => {
    for (const { object, pod } of workloads(objects)) {
      for (const container of pod.containers) {
        const at = `${object.metadata.name}/${container.name}`;
        const names = new Map((container.ports ?? []).map((p) => [p.name, p.containerPort]));
        for (const probe of [container.readinessProbe, container.livenessProbe]) {
          const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
          if (port === undefined) continue;
          expect(typeof port === 'number' ? [...names.values()] : [...names.keys()], `${at} probe port`).toContain(
            port,
          );
        }
        const image = IMAGES[imageName(container.image)];
        if (!image) continue; // Redis: a public image
        const exposed = exposedPorts(image.dockerfile, image.target);
        for (const port of names.values()) expect(exposed, `${at} port ${port}`).toContain(port);
        const helpText = HELP[imageName(container.image)]!;
        for (const name of environment(objects, container).keys()) {
          if (IMAGE_ENV.includes(name) || DEPLOYMENT_ENV.includes(name)) continue;
          expect(helpText, `${at}: variable ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
        }
      }
    }
    // Services reach named container ports of the pods they select.
    for (const service of byKind(objects, 'Service')) {
      const spec = service.spec as { selector: Record<string, string>; ports: { targetPort: string }[] };
      const target = workloads(objects).find((w) => Object.entries(spec.selector).every(([k, v]) => w.labels[k] === v));
      expect(target, `Service/${service.metadata.name} selects a workload`).toBeDefined();
      const portNames = target!.pod.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
      for (const port of spec.ports) expect(portNames).toContain(port.targetPort);
    }
  });

  it('sizes the env server from the per-session memory figures, MAX_CONCURRENT_ENVS matched', () => {
    const env = workload(objects, 'env-server').pod.containers[0]!;
    const sessions = Number(env.env?.find((e) => e.name === 'MAX_CONCURRENT_ENVS')?.value);
    expect(sessions).toBeGreaterThanOrEqual(1);
    const request = quantity(env.resources!.requests!.memory!);
    expect(request).toBeGreaterThanOrEqual(ENV_BASE_BYTES + sessions * ENV_SESSION_BYTES);
    // Not wildly over: the scheduler packs pods by their requests.
    expect(request).toBeLessThanOrEqual(2 * (ENV_BASE_BYTES + sessions * ENV_SESSION_BYTES));
  });

  it("scales workers with KEDA on the Redis lists of the episodes queue's waiting and active jobs", () => {
    const scaled = byKind(objects, 'ScaledObject').find((o) => o.metadata.name === 'rollout-worker') as
      | (K8sObject & {
          spec: {
            scaleTargetRef: { name: string };
            triggers: { type: string; name: string; metadata: Record<string, string> }[];
          };
        })
      | undefined;
    expect(scaled!.spec.scaleTargetRef.name).toBe('rollout-worker');
    const worker = workload(objects, 'rollout-worker');
    expect(worker.object.kind).toBe('Deployment');
    const container = worker.pod.containers[0]!;
    expect(container.args?.[0]).toBe('run');
    const env = environment(objects, container);
    const [trigger, playing] = scaled!.spec.triggers;
    expect(scaled!.spec.triggers.map((t) => t.type)).toEqual(['redis', 'redis']);
    // The lists BullMQ keeps waiting and taken jobs in: <prefix>:<queue>:wait and :active
    // (test/k8s/scaler-key.test.ts checks this against the installed BullMQ), with the prefix the workers use.
    expect(trigger!.metadata.listName).toBe(`${env.get('GAUNTLET_QUEUE_PREFIX')}:${QUEUES.episodes}:wait`);
    expect(playing!.metadata.listName).toBe(`${env.get('GAUNTLET_QUEUE_PREFIX')}:${QUEUES.episodes}:active`);
    expect(playing!.metadata.addressFromEnv).toBe(trigger!.metadata.addressFromEnv);
    // KEDA reads Redis where the workers do. The KEDA operator resolves the address from its own
    // namespace, so it is the Service's fully-qualified name in the rendered namespace.
    const redisService = byKind(objects, 'Service').find((o) => o.metadata.name === 'redis')!;
    expect(env.get(trigger!.metadata.addressFromEnv!)).toBe(
      `redis.${redisService.metadata.namespace}.svc.cluster.local:6379`,
    );
    expect(env.get('REDIS_URL')).toBe(`redis://${env.get(trigger!.metadata.addressFromEnv!)}`);
    // The trainer submits to, and reads from, the same queues.
    const trainerEnv = environment(objects, workload(objects, 'trainer').pod.containers[0]!);
    expect(trainerEnv.get('REDIS_URL')).toBe(env.get('REDIS_URL'));
    expect(trainerEnv.get('GAUNTLET_QUEUE_PREFIX')).toBe(env.get('GAUNTLET_QUEUE_PREFIX'));
    // …and checks its --task against the env servers the workers play on.
    expect(trainerEnv.get('GAUNTLET_ENV_URLS')).toBe(env.get('GAUNTLET_ENV_URLS'));
    expect(trainerEnv.has('GAUNTLET_TOKEN')).toBe(true);
    const pdb = byKind(objects, 'PodDisruptionBudget')[0]!.spec as {
      selector: { matchLabels: Record<string, string> };
    };
    expect(pdb.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'rollout-worker' });
  });

  it('lets only workers and the trainer reach the env servers and Redis', () => {
    const policies = byKind(objects, 'NetworkPolicy') as (K8sObject & {
      spec: {
        podSelector: { matchLabels?: Record<string, string> };
        ingress?: { from: { podSelector?: { matchLabels: Record<string, string> } }[] }[];
      };
    })[];
    expect(
      policies.some((p) => Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0 && !p.spec.ingress),
    ).toBe(true);
    for (const target of ['env-server', 'redis']) {
      const guarding = policies.filter((p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === target);
      expect(guarding.length, target).toBeGreaterThan(0);
      const peers = guarding.flatMap((p) =>
        (p.spec.ingress ?? []).flatMap((rule) =>
          rule.from.flatMap((peer) =>
            peer.podSelector ? [peer.podSelector.matchLabels['app.kubernetes.io/name']] : [],
          ),
        ),
      );
      expect(new Set(peers), target).toEqual(new Set(['rollout-worker', 'trainer']));
    }
  });

  it('runs Redis with a stated maxmemory under its memory limit and noeviction (BullMQ loses jobs to eviction)', () => {
    const redis = workload(objects, 'redis').pod.containers[0]!;
    const args = redis.args!;
    const value = (flag: string) => args[args.indexOf(flag) + 1];
    expect(value('--maxmemory-policy')).toBe('noeviction');
    const megabytes = /^(\d+)mb$/.exec(value('--maxmemory') ?? '');
    expect(megabytes, `--maxmemory ${value('--maxmemory')}`).not.toBeNull();
    // At most half the limit: an AOF rewrite forks, and copy-on-write may double what Redis holds.
    expect(Number(megabytes![1]) * 2 ** 20 * 2).toBeLessThanOrEqual(quantity(redis.resources!.limits!.memory!));
  });

  it('asks for a GPU for the trainer in the gpu overlay only, and annotates every pod for Prometheus', () => {
    const gpus = workloads(objects).flatMap((w) =>
      w.pod.containers.filter((c) => c.resources?.limits?.['nvidia.com/gpu']).map(() => w.object.metadata.name),
    );
    expect(gpus).toEqual(overlay === 'gpu' ? ['trainer'] : []);
    const args = workload(objects, 'trainer').pod.containers[0]!.args!;
    expect(args.join(' ').includes('--device cuda')).toBe(overlay === 'gpu');
    for (const w of workloads(objects).filter((w) => w.object.metadata.name !== 'redis')) {
      expect(w.annotations['prometheus.io/scrape'], w.object.metadata.name).toBe('true');
      const port = Number(w.annotations['prometheus.io/port']);
      expect(w.pod.containers.flatMap((c) => (c.ports ?? []).map((p) => p.containerPort))).toContain(port);
    }
  });
});

describe('k8s/components/external-redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-k8s-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('drops the in-cluster Redis and points workers, trainer and KEDA at the one address', () => {
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'resources:',
        `  - ${relative(dir, join(K8S, 'overlays', 'cpu'))}`,
        'components:',
        `  - ${relative(dir, join(K8S, 'components', 'external-redis'))}`,
        '',
      ].join('\n'),
    );
    const objects = renderKustomization(dir);
    expect(objects.filter((o) => o.metadata.name === 'redis' || o.metadata.name === 'redis-ingress')).toEqual([]);
    expect(objects.map(schemaProblem).filter(Boolean)).toEqual([]);
    const address = configMap(objects).data.REDIS_ADDRESS;
    expect(address).not.toBe('redis:6379');
    for (const name of ['rollout-worker', 'trainer'])
      expect(environment(objects, workload(objects, name).pod.containers[0]!).get('REDIS_URL')).toBe(
        `redis://${address}`,
      );
  });
});
