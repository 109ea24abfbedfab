// The capacity arithmetic of k8s/: the trainer keeps at most max-in-flight groups of group-size
// episodes queued, so KEDA may run no more workers than those episodes keep busy; both scale on the
// backlog the workers serve (waiting + active episode jobs, summed by KEDA's scalingModifiers), and
// the env servers must hold a session for every episode the workers play at once, at every backlog
// KEDA can see. Rendered with kustomize, read from the rendered objects.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectiveSettings } from './grpo-settings.js';
import { K8S, REPO, renderKustomization, type K8sObject } from './render.js';
import { byKind, workload } from './workloads.js';

interface Scaled {
  spec: {
    scaleTargetRef: { name: string };
    minReplicaCount: number;
    maxReplicaCount: number;
    cooldownPeriod: number;
    advanced: { scalingModifiers: { formula: string; target: string; metricType: string } };
    triggers: { type: string; name: string; metadata: Record<string, string> }[];
  };
}

/** The replicas KEDA asks for at `backlog` episodes (a composite AverageValue metric: ceil(backlog / target), clamped). */
function replicas(scaled: Scaled, backlog: number): number {
  const per = Number(scaled.spec.advanced.scalingModifiers.target);
  return Math.min(scaled.spec.maxReplicaCount, Math.max(scaled.spec.minReplicaCount, Math.ceil(backlog / per)));
}

/** The Redis list each named trigger reads, and the formula that combines them. */
function signal(scaled: Scaled) {
  const { formula, metricType } = scaled.spec.advanced.scalingModifiers;
  const lists = Object.fromEntries(
    scaled.spec.triggers.map((t) => [
      t.name,
      { type: t.type, listName: t.metadata.listName, address: t.metadata.addressFromEnv },
    ]),
  );
  return { formula, metricType, lists };
}

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? undefined : args[at + 1];
}

const grpoHelp = execFileSync(process.execPath, ['trainer/bin/cli.js', 'grpo', '--help'], {
  cwd: REPO,
  encoding: 'utf8',
});

/** Episodes the trainer keeps queued at most: max-in-flight (its documented default if unset) × group-size. */
function episodesInFlight(objects: K8sObject[]): number {
  const s = effectiveSettings(workload(objects, 'trainer').pod.containers[0]!.args!);
  expect(grpoHelp).toMatch(/--max-in-flight N .*\(default: groups-per-update × \(max-staleness \+ 1\)\)/);
  const groupsPerUpdate = Number(
    s['groups-per-update'] ?? /--groups-per-update N .*\(default: (\d+)\)/.exec(grpoHelp)![1],
  );
  const staleness = Number(s['max-staleness'] ?? /--max-staleness K .*\(default: (\d+)\)/.exec(grpoHelp)![1]);
  const groups = Number(s['max-in-flight'] ?? groupsPerUpdate * (staleness + 1));
  return groups * Number(s['group-size'] ?? /--group-size G .*\(default: (\d+)\)/.exec(grpoHelp)![1]);
}

describe.each(['cpu', 'gpu'])('k8s/overlays/%s capacity', (overlay) => {
  const objects = renderKustomization(join(K8S, 'overlays', overlay));
  const scaled = (target: string) => {
    const found = byKind(objects, 'ScaledObject').find(
      (o) => (o as unknown as Scaled).spec.scaleTargetRef.name === target,
    );
    expect(found, `a ScaledObject for ${target}`).toBeDefined();
    return found as unknown as Scaled;
  };
  const workers = scaled('rollout-worker');
  const envs = scaled('env-server');
  const concurrency = Number(flag(workload(objects, 'rollout-worker').pod.containers[0]!.args!, 'concurrency'));
  const env = workload(objects, 'env-server').pod.containers[0]!;
  const sessions = Number(env.env!.find((e) => e.name === 'MAX_CONCURRENT_ENVS')!.value);

  it('counts the episodes the workers serve: waiting plus being played, one worker per --concurrency of them', () => {
    const { formula, metricType, lists } = signal(workers);
    expect({ formula, metricType }).toEqual({ formula: 'waiting + playing', metricType: 'AverageValue' });
    expect(lists.waiting!.listName).toMatch(/:gauntlet-episodes:wait$/);
    expect(lists.playing!.listName).toBe(lists.waiting!.listName!.replace(/:wait$/, ':active'));
    expect(Number(workers.spec.advanced.scalingModifiers.target)).toBe(concurrency);
  });

  it("caps the workers at what the trainer's in-flight episodes keep busy", () => {
    expect(concurrency).toBeGreaterThanOrEqual(1);
    const inFlight = episodesInFlight(objects);
    expect({ inFlight, concurrency, maxWorkers: workers.spec.maxReplicaCount }).toEqual({
      inFlight,
      concurrency,
      maxWorkers: Math.ceil(inFlight / concurrency),
    });
  });

  it('scales the env servers on the same backlog, with a session for every episode the workers play at once', () => {
    // The same lists in the same Redis, summed the same way; only the episodes per replica differ.
    expect(signal(envs)).toEqual(signal(workers));
    expect(Number(envs.spec.advanced.scalingModifiers.target)).toBe(sessions);
    const short: { backlog: number; sessions: number; playing: number }[] = [];
    for (let backlog = 0; backlog <= 4 * episodesInFlight(objects); backlog++) {
      const playing = replicas(workers, backlog) * concurrency;
      const have = replicas(envs, backlog) * sessions;
      if (have < playing) short.push({ backlog, sessions: have, playing });
    }
    expect(short).toEqual([]);
    // And no more of them than that at full scale.
    expect(envs.spec.maxReplicaCount).toBe(Math.ceil((workers.spec.maxReplicaCount * concurrency) / sessions));
    // Env servers leave only after the workers playing on them.
    expect(envs.spec.cooldownPeriod).toBeGreaterThanOrEqual(workers.spec.cooldownPeriod);
  });
});
