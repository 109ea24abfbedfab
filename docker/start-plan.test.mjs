import { describe, expect, it } from 'vitest';
import { planStart } from './start-plan.mjs';

describe('the trainer image entrypoint', () => {
  it('binds HOST (0.0.0.0 by default) for commands that listen, unless the command line names a host', () => {
    expect(planStart('gauntlet-trainer', ['serve'], {})).toEqual({
      bin: '/app/trainer/bin/cli.js',
      args: ['serve', '--host', '0.0.0.0'],
    });
    expect(planStart('gauntlet-trainer', ['grpo', '--port', '8001'], { HOST: '::' }).args).toEqual([
      'grpo',
      '--port',
      '8001',
      '--host',
      '::',
    ]);
    expect(planStart('gauntlet-trainer', ['serve', '--host', '127.0.0.1'], {}).args).toEqual([
      'serve',
      '--host',
      '127.0.0.1',
    ]);
    expect(planStart('gauntlet-worker', ['run', '--env', 'ws://env:8000'], {}).args).toEqual([
      'run',
      '--env',
      'ws://env:8000',
      '--metrics-host',
      '0.0.0.0',
    ]);
    expect(planStart('gauntlet-worker', ['run', '--metrics-host=10.0.0.1'], {}).args).toEqual([
      'run',
      '--metrics-host=10.0.0.1',
    ]);
    expect(planStart('gauntlet-trainer', ['init-tiny', '/tmp/m'], {}).args).toEqual(['init-tiny', '/tmp/m']);
  });

  it('refuses to start a listening command without a token under GAUNTLET_REQUIRE_TOKEN=1', () => {
    const refused = planStart('gauntlet-trainer', ['serve'], { GAUNTLET_REQUIRE_TOKEN: '1' });
    expect(refused).toMatchObject({ exitCode: 2 });
    expect(refused.message).toMatch(/GAUNTLET_TOKEN/);
    expect(planStart('gauntlet-worker', ['run'], { GAUNTLET_REQUIRE_TOKEN: 'true' })).toMatchObject({ exitCode: 2 });
    expect(
      planStart('gauntlet-trainer', ['serve'], { GAUNTLET_REQUIRE_TOKEN: '1', GAUNTLET_TOKEN: 's' }),
    ).toHaveProperty('bin');
    expect(planStart('gauntlet-worker', ['run'], { GAUNTLET_REQUIRE_TOKEN: '1', VLLM_API_KEY: 's' })).toHaveProperty(
      'bin',
    );
    // --help and commands that serve nothing still run.
    expect(planStart('gauntlet-trainer', ['serve', '--help'], { GAUNTLET_REQUIRE_TOKEN: '1' })).toHaveProperty('bin');
    expect(planStart('gauntlet-trainer', ['--help'], { GAUNTLET_REQUIRE_TOKEN: '1' })).toHaveProperty('bin');
  });

  it("passes grpo's --resume through: the trainer starts afresh while no checkpoint exists", () => {
    const args = ['grpo', '--output-dir', '/data/runs', '--resume', '--host', '0.0.0.0'];
    expect(planStart('gauntlet-trainer', args, {}).args).toEqual(args);
  });

  it('rejects a malformed GAUNTLET_REQUIRE_TOKEN and an unknown tool', () => {
    expect(planStart('gauntlet-trainer', ['serve'], { GAUNTLET_REQUIRE_TOKEN: 'maybe' })).toMatchObject({
      exitCode: 2,
    });
    expect(planStart('gauntlet-env', ['serve'], {})).toMatchObject({ exitCode: 2 });
  });
});
