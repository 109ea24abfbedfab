import { NoServerInRotationError, ServerVerificationError } from './errors.js';
import type { ProbeExpectation } from './probe.js';
import { PublishTarget, type ServerTarget } from './server.js';

export interface ExternalPublisherOptions {
  targets: readonly ServerTarget[];
  /** Largest |server − trainer| log-prob allowed on any probe completion token (default 1e-3). */
  tolerance?: number;
  /** Versions left loaded on each server; older ones are unloaded (default 2). */
  keepVersions?: number;
  /** Versions an earlier process of this run left loaded (a resume), oldest first: unloaded as the window moves. */
  loadedVersions?: readonly string[];
  /** Deadline of each call to a server in ms (default 30 000). */
  timeoutMs?: number;
  log?: (line: string) => void;
}

/** One adapter version as written on a path every server can read. */
export interface PublishedVersion {
  /** The name requests use (`<run>@v<N>`). */
  name: string;
  version: number;
  /** The PEFT folder, as the servers see it. */
  dir: string;
}

export interface ServerReport {
  url: string;
  name: string;
  ok: boolean;
  /** Why the server was taken out of rotation (ok = false). */
  reason?: string;
  /** Largest probe log-prob difference, once the probe ran. */
  maxAbsDiff?: number;
  /** How far the adapter moves the probe from the base model: below the tolerance, the probe cannot tell them apart. */
  adapterEffect?: number;
  loadMs: number;
  verifyMs: number;
  /** Older versions unloaded from this server after the publish. */
  unloaded: string[];
}

export interface RemovedServer {
  url: string;
  reason: string;
  /** The version whose verification it failed. */
  version: string;
}

export const DEFAULT_PROBE_TOLERANCE = 1e-3;

/**
 * Publishes adapter versions to external vLLM-compatible servers and proves each load: the server
 * loads the folder, lists the name, and reproduces the trainer's probe log-probs within the
 * tolerance. A server that fails any of it leaves the rotation for good (a run never trains
 * against a server it cannot trust); only when none is left does publish throw.
 */
export class ExternalPublisher {
  readonly tolerance: number;
  readonly keepVersions: number;
  private readonly servers: PublishTarget[];
  private readonly out: RemovedServer[] = [];
  private readonly loaded: string[] = [];
  private readonly log: (line: string) => void;

  constructor(options: ExternalPublisherOptions) {
    this.tolerance = options.tolerance ?? DEFAULT_PROBE_TOLERANCE;
    this.keepVersions = options.keepVersions ?? 2;
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (!(this.tolerance > 0 && Number.isFinite(this.tolerance)))
      throw new RangeError(`publisher tolerance must be a positive number, got ${this.tolerance}`);
    if (!(Number.isInteger(this.keepVersions) && this.keepVersions >= 1))
      throw new RangeError(`publisher keepVersions must be an integer ≥ 1, got ${this.keepVersions}`);
    if (!(Number.isInteger(timeoutMs) && timeoutMs > 0))
      throw new RangeError(`publisher timeoutMs must be a positive integer, got ${timeoutMs}`);
    if (options.targets.length === 0) throw new RangeError('publisher: no policy server given');
    this.servers = options.targets.map((t) => new PublishTarget(t, timeoutMs));
    const seen = new Set<string>();
    for (const s of this.servers) {
      if (seen.has(s.url)) throw new RangeError(`publisher: policy server ${s.url} is given twice`);
      seen.add(s.url);
    }
    this.log = options.log ?? (() => {});
    this.loaded.push(...(options.loadedVersions ?? []));
  }

  /** The servers still trusted, in the order given. */
  inRotation(): ServerTarget[] {
    return this.servers.map((s) => ({ ...s.target, url: s.url }));
  }

  /** The servers taken out, with why. */
  removed(): RemovedServer[] {
    return [...this.out];
  }

  /** Loads and verifies one version on every server in rotation, then unloads versions past keepVersions. */
  async publish(version: PublishedVersion, probe: ProbeExpectation): Promise<ServerReport[]> {
    if (this.servers.length === 0) throw new NoServerInRotationError(this.out);
    if (probe.logprobs.length !== probe.completionIds.length)
      throw new RangeError(
        `probe: ${probe.logprobs.length} log-probs for ${probe.completionIds.length} completion tokens`,
      );
    const reports = await Promise.all(this.servers.map((server) => this.publishTo(server, version, probe)));
    for (const report of reports.filter((r) => !r.ok)) this.takeOut(report.url, report.reason!, version.name);
    this.loaded.push(version.name);
    const stale = this.loaded.splice(0, Math.max(0, this.loaded.length - this.keepVersions));
    for (const report of reports.filter((r) => r.ok)) report.unloaded = await this.unload(report.url, stale);
    if (this.servers.length === 0) throw new NoServerInRotationError(this.out);
    return reports;
  }

  private async publishTo(
    server: PublishTarget,
    version: PublishedVersion,
    probe: ProbeExpectation,
  ): Promise<ServerReport> {
    const report: ServerReport = {
      url: server.url,
      name: version.name,
      ok: false,
      loadMs: 0,
      verifyMs: 0,
      unloaded: [],
    };
    const started = performance.now();
    try {
      await server.load(version.name, version.dir);
      report.loadMs = performance.now() - started;
      await server.assertListed(version.name);
      const { maxAbsDiff, at } = await server.compareProbe(version.name, probe);
      report.maxAbsDiff = maxAbsDiff;
      if (probe.baseLogprobs) report.adapterEffect = maxDiff(probe.logprobs, probe.baseLogprobs);
      if (!(maxAbsDiff <= this.tolerance))
        throw new ServerVerificationError(
          server.url,
          'probe',
          version.name,
          `probe log-prob differs by ${maxAbsDiff.toPrecision(3)} at completion token ${at} (tolerance ${this.tolerance})`,
        );
      report.ok = true;
      if (report.adapterEffect !== undefined && report.adapterEffect <= this.tolerance)
        this.log(
          `publish ${version.name}: the adapter moves the probe by only ${report.adapterEffect.toPrecision(3)}; on ${server.url} the probe cannot tell it from the base model`,
        );
    } catch (error) {
      report.reason =
        error instanceof ServerVerificationError ? error.message : `${server.url}: ${(error as Error).message}`;
    }
    report.verifyMs = performance.now() - started - report.loadMs;
    return report;
  }

  private takeOut(url: string, reason: string, version: string): void {
    this.log(`publish: ${url} taken out of rotation: ${reason}`);
    this.out.push({ url, reason, version });
    const at = this.servers.findIndex((s) => s.url === url);
    if (at >= 0) this.servers.splice(at, 1);
  }

  /** Unload failures are logged, not held against the server: what it serves was verified already. */
  private async unload(url: string, names: readonly string[]): Promise<string[]> {
    const server = this.servers.find((s) => s.url === url);
    const done: string[] = [];
    for (const name of server ? names : []) {
      try {
        await server!.unload(name);
        done.push(name);
      } catch (error) {
        this.log(`publish: could not unload ${name} from ${url}: ${(error as Error).message}`);
      }
    }
    return done;
  }
}

function maxDiff(a: readonly number[], b: readonly number[]): number {
  return a.reduce((max, v, i) => Math.max(max, Math.abs(v - (b[i] ?? NaN))), 0);
}
