import { describe, expect, it } from 'vitest';
import { CHALLENGES } from '../challenges/index.js';
import { buildAppScript, functionSource } from './build-app.js';

describe('buildAppScript', () => {
  it('joins the runtime and every challenge into one script that parses', () => {
    const script = buildAppScript([...CHALLENGES.values()]);
    expect(() => new Function(script)).not.toThrow();
    for (const type of CHALLENGES.keys()) expect(script).toContain(`"${type}": `);
  });

  it("writes every challenge's page code as an arrow function of its ctx", () => {
    for (const challenge of CHALLENGES.values()) expect(challenge.render.toString()).toMatch(/^\(?ctx\)? =>/);
  });

  it('refuses page code written as a method (its source is not an expression)', () => {
    const holder = {
      render(x: number) {
        return x;
      },
    };
    expect(() => functionSource(holder.render, 'demo')).toThrow(
      /demo: page code must be an arrow function or function expression/,
    );
    expect(functionSource((x: number) => x, 'arrow')).toBe('(x) => x');
  });
});
