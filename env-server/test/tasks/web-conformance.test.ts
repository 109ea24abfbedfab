import { afterAll, beforeAll } from 'vitest';
import { startWebSite, type WebSite } from '../support/web-site.js';
import { describeFamilyConformance } from './family-conformance.js';

// The site must be up before the suite's server reads its config: this hook is registered first.
let site: WebSite;
beforeAll(async () => {
  site = await startWebSite();
});
afterAll(() => site?.close());

describeFamilyConformance('web', {
  select: (task) => task.benchmark === 'web',
  config: () => ({ allowedOrigins: [site.origin] }),
  resetOptions: () => ({ url: `${site.origin}/`, goal: 'Place an order.' }),
  oracleSeeds: [],
  noOracle: 'the web task has no oracle: its goal is free text on any page',
});
