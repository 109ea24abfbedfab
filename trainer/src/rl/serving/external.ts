import { join } from 'node:path';
import { policyServerName } from '@gauntlet/proto/rollout';
import type { GrpoLearner } from '../../train/grpo/index.js';
import type { VersionPublisher } from '../loop/grpo-loop.js';
import { ExternalPublisher, trainerProbe, writeAdapterVersion, type ProbeTokens } from '../publish/index.js';
import type { PolicyTensors } from '../../train/policy-tensors.js';
import { versionName } from './versions.js';

/**
 * Publishing to external vLLM servers: each version is written as a PEFT folder under
 * `publishDir` (a path the servers read), loaded on every server in rotation and verified
 * against the trainer's own probe log-probs; jobs then name only the servers that passed.
 */
export class ExternalVersionPublisher implements VersionPublisher {
  constructor(
    private readonly publisher: ExternalPublisher,
    private readonly o: {
      run: string;
      learner: GrpoLearner;
      probe: ProbeTokens;
      publishDir: string;
      baseModel: string;
      log: (line: string) => void;
    },
  ) {}

  async publish(version: number, { adapter, weights }: PolicyTensors): Promise<void> {
    // grpo refuses --vllm-url with base weights trained (settings): a server cannot load them as an adapter.
    if (!adapter || weights?.size)
      throw new RangeError(
        'external publishing takes a LoRA adapter alone; trained base weights cannot be loaded at runtime',
      );
    const name = versionName(this.o.run, version);
    const dir = join(this.o.publishDir, name);
    await writeAdapterVersion(adapter, dir, { baseModel: this.o.baseModel, name, version, step: version });
    const probe = await trainerProbe(this.o.learner, this.o.probe, adapter);
    const reports = await this.publisher.publish({ name, version, dir }, probe);
    for (const r of reports)
      this.o.log(
        r.ok
          ? `grpo: ${name} verified on ${r.url} (probe Δ ${r.maxAbsDiff?.toExponential(1)}, load ${Math.round(r.loadMs)} ms)`
          : `grpo: ${name} failed on ${r.url}: ${r.reason}`,
      );
  }

  /** The servers in rotation by name (their host:port, as a worker names a bare --policy URL): jobs never carry URLs. */
  rotation(): string[] {
    return this.publisher.inRotation().map((t) => policyServerName(t.url));
  }
}
