// One GRPO recipe for every way the stack is deployed: the k8s trainer and the compose trainer both
// run `grpo --config` on the recipe shipped in the image (trainer/recipes/), and the flags either
// adds may not change what the recipe sets — with compose's environment defaults resolved as
// Compose resolves them. (Once the k8s args left the recipe out, the same stack scored 0 of 64.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { effectiveSettings, IMAGE_RECIPES, withDefaults } from './grpo-settings.js';
import { K8S, REPO, renderKustomization } from './render.js';
import { workload } from './workloads.js';

const compose = parse(readFileSync(join(REPO, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, { command: string[] }>;
};
const composeArgs = compose.services['trainer']!.command.map(withDefaults);

describe('the GRPO recipe compose and k8s train', () => {
  it.each(['cpu', 'gpu'])(
    'k8s/overlays/%s: the trainer runs the recipe compose runs, with the same effective settings',
    (overlay) => {
      const objects = renderKustomization(join(K8S, 'overlays', overlay));
      const k8sArgs = workload(objects, 'trainer').pod.containers[0]!.args!;
      const [k8s, composed] = [effectiveSettings(k8sArgs), effectiveSettings(composeArgs)];
      expect(k8s['config']).toBe(composed['config']);
      const recipe = Object.keys(effectiveSettings(['grpo', '--config', composed['config']!]));
      for (const key of recipe.filter((k) => k !== 'config')) expect([key, k8s[key]]).toEqual([key, composed[key]]);
      // The recipe's own values are what makes it learn: the constrained, bid-choice action space.
      expect(composed).toMatchObject({ constrained: 'true', 'bid-choices': 'true', task: 'miniwob.click-test' });
    },
  );

  it("compose's overridable flags default to the recipe's values", () => {
    const recipe = effectiveSettings(['grpo', '--config', `${IMAGE_RECIPES}click-test.yaml`]);
    const composed = effectiveSettings(composeArgs);
    const overridden = Object.keys(composed).filter((k) => k in recipe && k !== 'config');
    expect(overridden.length).toBeGreaterThan(3);
    for (const key of overridden) expect(composed[key], key).toBe(recipe[key]);
  });
});
