import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptionSpec } from '../../command.js';
import { parseCommandLine } from '../../options.js';
import { grpoCommand } from './grpo.js';
import { GRPO_OPTIONS } from './options.js';
import { parseGrpoSettings } from './settings.js';

let dir = '';
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'gauntlet-grpo-config-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The settings of `grpo ARGS` (with `--config FILE` first when a file is given), read as the bin reads them. */
const settingsOf = async (args: string[], file?: { name: string; text: string }) => {
  if (!file) return parseGrpoSettings(parseCommandLine(grpoCommand, args));
  const path = join(dir, file.name);
  await writeFile(path, file.text);
  return parseGrpoSettings(parseCommandLine(grpoCommand, ['--config', path, ...args]));
};

describe('grpo settings', () => {
  it('--train: lora by default; full or parts train base weights; --publish-dir then writes model folders', async () => {
    const t = ['--task', 'miniwob.click-test'];
    expect([...(await settingsOf(t)).train]).toEqual(['lora']);
    const full = await settingsOf([...t, '--train', 'full']);
    expect([...full.train].sort()).toEqual(['embeddings', 'head', 'layers']);
    expect(full.modelVersionsDir).toBeUndefined();
    const parts = await settingsOf([...t, '--train', 'lora,embeddings,head', '--publish-dir', join(dir, 'v')]);
    expect([...parts.train].sort()).toEqual(['embeddings', 'head', 'lora']);
    expect(parts.modelVersionsDir).toBe(join(dir, 'v'));
    // With LoRA alone --publish-dir stays the adapters' folder for --vllm-url.
    expect((await settingsOf([...t, '--publish-dir', join(dir, 'v')])).modelVersionsDir).toBeUndefined();
  });

  it('--train with base weights refuses --vllm-url and --init-adapter without lora, naming the flag', async () => {
    const t = ['--task', 'miniwob.click-test', '--train', 'full'];
    await expect(settingsOf([...t, '--vllm-url', 'http://v:8000'])).rejects.toThrow(
      /^grpo: --train full cannot publish to --vllm-url/,
    );
    await expect(settingsOf([...t, '--init-adapter', dir])).rejects.toThrow(
      /--init-adapter starts an adapter, but --train full/,
    );
    await expect(settingsOf(['--task', 'miniwob.click-test', '--train', 'lora,layers'])).rejects.toThrow(
      /^grpo: --train: lora adapts the layers/,
    );
  });

  it('have documented defaults', async () => {
    const s = await settingsOf(['--task', 'miniwob.click-test']);
    expect(s).toMatchObject({
      tasks: [{ name: 'miniwob.click-test', weight: 1 }],
      groupSize: 8,
      groupsPerUpdate: 4,
      maxStaleness: 1,
      maxInFlight: 8,
      run: 'grpo',
      port: 8001,
      host: '127.0.0.1',
      vllmUrls: [],
      grpo: { lossType: 'dapo', scaleRewards: 'group', samplerCorrection: { level: 'sequence', mode: 'mask' } },
    });
    expect(s.outputDir.endsWith('runs/grpo')).toBe(true);
  });

  it('--observation-format names how episodes render pages (default axtree) and refuses other names', async () => {
    expect((await settingsOf(['--task', 'a'])).episode.observation_format).toBe('axtree');
    expect((await settingsOf(['--task', 'a', '--observation-format', 'pruned'])).episode.observation_format).toBe(
      'pruned',
    );
    await expect(settingsOf(['--task', 'a', '--observation-format', 'html'])).rejects.toThrow(/--observation-format/);
  });

  it('--bid-choices narrows constrained episodes to the page bids, and needs --constrained', async () => {
    const s = await settingsOf(['--task', 'a', '--constrained', '--bid-choices']);
    expect(s.episode).toMatchObject({ constrained: true, bid_choices: true, action_names: null });
    expect((await settingsOf(['--task', 'a'])).episode).toMatchObject({ constrained: false, bid_choices: false });
    await expect(settingsOf(['--task', 'a', '--bid-choices'])).rejects.toThrow(/give --constrained too/);
    const typed = await settingsOf(['--task', 'a', '--constrained', '--bid-choices', '--text-choices']);
    expect(typed.episode).toMatchObject({ bid_choices: true, text_choices: true });
    expect((await settingsOf(['--task', 'a'])).episode.text_choices).toBe(false);
    await expect(settingsOf(['--task', 'a', '--text-choices'])).rejects.toThrow(/give --constrained too/);
    // The in-process server reports unconstrained log-probs, so the correction stays on; a vLLM
    // server's are masked by the grammar, so it is off unless asked for.
    expect((await settingsOf(['--task', 'a', '--constrained'])).grpo.samplerCorrection).toMatchObject({
      level: 'sequence',
    });
    const vllm = ['--task', 'a', '--constrained', '--vllm-url', 'http://gpu:8000'];
    expect((await settingsOf(vllm)).grpo.samplerCorrection).toBeNull();
    expect((await settingsOf([...vllm, '--sampler-correction', 'token'])).grpo.samplerCorrection).not.toBeNull();
    const clicks = await settingsOf(['--task', 'a', '--constrained', '--action-names', 'click, noop']);
    expect(clicks.episode.action_names).toEqual(['click', 'noop']);
    await expect(settingsOf(['--task', 'a', '--constrained', '--action-names', 'click,eval'])).rejects.toThrow(
      /eval is not an action/,
    );
  });

  it('--max-sequence-tokens and --max-failed-updates bound what groups may bring and how many updates may fail', async () => {
    const defaults = await settingsOf(['--task', 'a']);
    expect(defaults.maxSequenceTokens).toBeUndefined();
    expect(defaults.maxFailedUpdates).toBe(3);
    const s = await settingsOf(['--task', 'a', '--max-sequence-tokens', '2048', '--max-failed-updates', '5']);
    expect([s.maxSequenceTokens, s.maxFailedUpdates]).toEqual([2048, 5]);
    await expect(settingsOf(['--task', 'a', '--max-sequence-tokens', '1'])).rejects.toThrow(/max-sequence-tokens/);
    await expect(settingsOf(['--task', 'a', '--max-failed-updates', '0'])).rejects.toThrow(/max-failed-updates/);
  });

  it('--keep-trajectories keeps 4 groups unless told (0: none); --viewer-url must be an http(s) URL', async () => {
    const defaults = await settingsOf(['--task', 'a']);
    expect([defaults.keepTrajectories, defaults.viewerUrl]).toEqual([4, undefined]);
    const s = await settingsOf(['--task', 'a', '--keep-trajectories', '0', '--viewer-url', 'http://127.0.0.1:8765/']);
    expect([s.keepTrajectories, s.viewerUrl]).toEqual([0, 'http://127.0.0.1:8765/']);
    await expect(settingsOf(['--task', 'a', '--keep-trajectories', '-1'])).rejects.toThrow(/--keep-trajectories/);
    await expect(settingsOf(['--task', 'a', '--viewer-url', 'javascript:alert(1)'])).rejects.toThrow(
      /--viewer-url "javascript:alert\(1\)" must be an http\(s\) URL/,
    );
  });

  it('max-staleness 0 gives strictly on-policy in-flight bounds', async () => {
    const s = await settingsOf(['--task', 'a', '--max-staleness', '0', '--groups-per-update', '3']);
    expect([s.maxStaleness, s.maxInFlight]).toEqual([0, 3]);
  });

  it('reads YAML and JSON config files (flag names or snake_case); flags win', async () => {
    const yaml = [
      'task: [miniwob.click-test=2, miniwob.click-button]',
      'group_size: 4',
      'lr: 2e-3',
      'constrained: true',
      'vllm-url: http://gpu-a:8000',
    ].join('\n');
    const s = await settingsOf(['--lr', '5e-4'], { name: 'run.yaml', text: yaml });
    expect(s.tasks).toEqual([
      { name: 'miniwob.click-test', weight: 2 },
      { name: 'miniwob.click-button', weight: 1 },
    ]);
    expect([s.groupSize, s.lr, s.episode.constrained, s.vllmUrls]).toEqual([4, 5e-4, true, ['http://gpu-a:8000']]);
    const j = await settingsOf(['--task', 'x'], { name: 'run.json', text: '{"max-steps": 7, "task": ["y"]}' });
    expect([j.maxSteps, j.tasks.map((t) => t.name)]).toEqual([7, ['x']]);
  });

  it('reads the shipped recipe (compose, k8s and learn train it) as its own values; flags next to it win', () => {
    const recipe = fileURLToPath(new URL('../../../../recipes/click-test.yaml', import.meta.url));
    const s = parseGrpoSettings(parseCommandLine(grpoCommand, ['--config', recipe, '--max-steps', '2'], {}));
    expect(s.tasks).toEqual([{ name: 'miniwob.click-test', weight: 1 }]);
    expect([s.run, s.groupSize, s.groupsPerUpdate, s.maxStaleness, s.maxSteps, s.lr, s.lora.rank]).toEqual([
      'click-test',
      8,
      2,
      1,
      2,
      3e-3,
      8,
    ]);
    expect(s.episode).toMatchObject({ max_turns: 1, constrained: true, bid_choices: true });
    expect(s.episode.sampling).toMatchObject({ max_tokens: 24, temperature: 2.5 });
  });

  it('takes --redis, --prefix, --api-key and --env-token from flag, else file, else environment', () => {
    const env = {
      REDIS_URL: 'redis://env:6379',
      GAUNTLET_QUEUE_PREFIX: 'envq',
      VLLM_API_KEY: 'k',
      GAUNTLET_TOKEN: 't',
    };
    const fromEnv = parseGrpoSettings(parseCommandLine(grpoCommand, ['--task', 'a'], env));
    expect([fromEnv.connection.prefix, fromEnv.apiKey, fromEnv.envToken]).toEqual(['envq', 'k', 't']);
    const flags = parseGrpoSettings(parseCommandLine(grpoCommand, ['--task', 'a', '--prefix', 'flagq'], env));
    expect(flags.connection.prefix).toBe('flagq');
    expect(parseGrpoSettings(parseCommandLine(grpoCommand, ['--task', 'a'], {})).connection.prefix).toBe('gauntlet');
    const file = join(dir, 'queues.yaml');
    writeFileSync(file, 'task: a\nprefix: fileq\n');
    const fromFile = parseGrpoSettings(parseCommandLine(grpoCommand, ['--config', file], env));
    expect([fromFile.connection.prefix, fromFile.apiKey]).toEqual(['fileq', 'k']);
  });

  it('refuses mistakes with the flag or key named', async () => {
    await expect(settingsOf([])).rejects.toThrow(/--task NAME\[=WEIGHT\] is required/);
    await expect(settingsOf(['--task', 'a', '--max-in-flight', '1', '--groups-per-update', '2'])).rejects.toThrow(
      /--max-in-flight \(1\) must be at least --groups-per-update \(2\)/,
    );
    await expect(settingsOf(['--task', 'a', '--loss-type', 'ppo'])).rejects.toThrow(/--loss-type must be one of/);
    await expect(settingsOf(['--task', 'a', '--loss-type', 'dr_grpo'])).rejects.toThrow(/maxCompletionLength/);
    await expect(settingsOf(['--task', 'a', '--run-name', 'a:b'])).rejects.toThrow(/run name "a:b"/);
    await expect(settingsOf(['--task', 'a', '--vllm-url', 'gpu:8000'])).rejects.toThrow(/must be an http\(s\) URL/);
    await expect(settingsOf(['--task', 'a', '--max-tokens', '300', '--context-tokens', '256'])).rejects.toThrow(
      /--max-tokens \(300\) must be below --context-tokens \(256\)/,
    );
    await expect(settingsOf([], { name: 'bad.yaml', text: 'task: a\ngroup-sise: 3' })).rejects.toThrow(
      /^grpo: --config .*bad\.yaml: unknown flag "group-sise"$/,
    );
    await expect(settingsOf([], { name: 'bad2.yaml', text: 'task: a\nconstrained: 3' })).rejects.toThrow(
      /^grpo: --config .*bad2\.yaml: --constrained must be true or false \(got 3\)$/,
    );
    await expect(settingsOf([], { name: 'bad.json', text: '{"task": ' })).rejects.toThrow(/not valid JSON/);
  });

  it('--advantage gigpo with --step-weight and --gamma, from flags or a config file; grpo by default', async () => {
    const t = ['--task', 'a'];
    const plain = (await settingsOf(t)).grpo;
    expect(plain.advantage).toBe('grpo');
    expect(plain).not.toHaveProperty('stepWeight');
    expect((await settingsOf([...t, '--advantage', 'gigpo'])).grpo).toMatchObject({
      advantage: 'gigpo',
      stepWeight: 1,
      gamma: 0.95,
    });
    const flags = await settingsOf([...t, '--advantage', 'gigpo', '--step-weight', '0.5', '--gamma', '0.9']);
    expect(flags.grpo).toMatchObject({ advantage: 'gigpo', stepWeight: 0.5, gamma: 0.9 });
    const file = { name: 'gigpo.yaml', text: 'task: a\nadvantage: gigpo\nstep_weight: 2\ngamma: 0.8' };
    expect((await settingsOf(['--gamma', '1'], file)).grpo).toMatchObject({ stepWeight: 2, gamma: 1 });
  });

  it.each([
    [[], 'task'],
    [['--task', 'a', '--group-size', '1'], 'group-size'],
    [['--task', 'a', '--max-in-flight', '1', '--groups-per-update', '2'], 'max-in-flight'],
    [['--task', 'a', '--targets', 'q_proj,lm_head'], 'targets'],
    [['--task', 'a', '--vllm-url', 'gpu:8000'], 'vllm-url'],
    [['--task', 'a', '--bid-choices'], 'bid-choices'],
    [['--task', 'a', '--text-choices'], 'text-choices'],
    [['--task', 'a', '--max-tokens', '300', '--context-tokens', '256'], 'max-tokens'],
    [['--task', 'a', '--lr-schedule', 'cosine', '--warmup', '100'], 'max-steps'],
    [['--task', 'a', '--gamma', '0.9'], 'gamma'],
    [['--task', 'a', '--run-name', 'a:b'], 'run-name'],
  ])('%j is a usage error naming --%s (UsageError.flag)', async (args, flag) => {
    await expect(settingsOf(args)).rejects.toMatchObject({ name: 'UsageError', flag });
  });

  it('refuses step-credit mistakes with the flag named', async () => {
    const g = ['--task', 'a', '--advantage', 'gigpo'];
    await expect(settingsOf(['--task', 'a', '--advantage', 'ppo'])).rejects.toThrow(
      /^grpo: --advantage must be one of grpo, gigpo/,
    );
    await expect(settingsOf([...g, '--gamma', '1.5'])).rejects.toThrow(
      /^grpo: --gamma must be a number ≥ 0 and ≤ 1 \(got "1\.5"\)$/,
    );
    await expect(settingsOf([...g, '--gamma=-0.1'])).rejects.toThrow(/^grpo: --gamma must be a number ≥ 0/);
    await expect(settingsOf([...g, '--step-weight=-1'])).rejects.toThrow(/^grpo: --step-weight must be a number ≥ 0/);
    await expect(settingsOf(['--task', 'a', '--gamma', '0.9'])).rejects.toThrow(
      /^grpo: --gamma weighs step-level credit: give --advantage gigpo too/,
    );
    await expect(settingsOf([...g, '--ratio-level', 'sequence'])).rejects.toThrow(
      /^grpo: --advantage gigpo .* needs --ratio-level token/,
    );
  });

  it('--help lists every knob with its default', () => {
    for (const [name, spec] of Object.entries(GRPO_OPTIONS) as [string, OptionSpec][])
      // --task is required; no --vllm-url or --api-key means none (the help says what happens then).
      if (spec.kind !== 'boolean' && !['task', 'vllm-url', 'api-key'].includes(name))
        expect(spec.default ?? spec.defaultText, `--${name} has no default shown`).toBeDefined();
  });
});
