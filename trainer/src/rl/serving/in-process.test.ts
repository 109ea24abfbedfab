import { describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../lora/adapter.js';
import { makeLoraConfig } from '../../lora/config.js';
import { tinyModelConfig } from '../../model/tiny.js';
import { AdapterRegistry } from '../../serve/adapters.js';
import { InProcessPublisher } from './in-process.js';

describe('InProcessPublisher', () => {
  const config = tinyModelConfig();

  it('serves each version by name, keeps the last `keep`, and copies the weights', () => {
    const registry = new AdapterRegistry('tiny', config);
    const publisher = new InProcessPublisher(registry, 'run', 2);
    const adapter = initLoraAdapter(config, makeLoraConfig({ rank: 4 }), 1);
    const [path, module] = [...adapter.modules][0]!;
    publisher.publish(0, { adapter });
    const served = registry.resolve('run@v0');
    const before = Array.from(Object.values(served)[0]!.data as Float32Array).slice(0, 4);
    module.a.data.fill(9);
    expect(Array.from(Object.values(registry.resolve('run@v0'))[0]!.data as Float32Array).slice(0, 4)).toEqual(before);
    publisher.publish(1, { adapter });
    publisher.publish(2, { adapter });
    expect(publisher.loaded()).toEqual([1, 2]);
    expect(() => registry.resolve('run@v0')).toThrow(/does not exist/);
    expect(path).toContain('layers.0');
  });
});
