import {
  act,
  findAll,
  OracleError,
  parseAxtree,
  mustFind,
  quotedInGoal,
  fromGoal,
  type OraclePolicy,
} from '../oracle.js';

const PER_PAGE = 3;
const isPageNumber = (name: string) => /^\d+$/.test(name);

/**
 * Type the query and press Enter; then go to the page holding the N-th result (the current page
 * is the one number not offered as a link) and click it.
 */
export const searchEngineOracle: OraclePolicy = (view) => {
  const query = quotedInGoal(view.goal, 0);
  const wanted = Number(fromGoal(view.goal, /click the (\d+)(?:st|nd|rd|th) search result/));
  const nodes = parseAxtree(view.axtree_txt);
  const links = findAll(nodes, 'link');
  const results = links.filter((link) => !isPageNumber(link.name));
  if (results.length === 0) {
    const field = mustFind(nodes, 'textbox', (name) => name === 'Search');
    return field.value === query ? act.press(field, 'Enter') : act.fill(field, query);
  }
  const offered = new Set(links.filter((link) => isPageNumber(link.name)).map((link) => Number(link.name)));
  let current = 1;
  while (offered.has(current)) current++;
  const page = Math.ceil(wanted / PER_PAGE);
  if (page !== current) return act.click(mustFind(nodes, 'link', (name) => name === String(page)));
  const result = results[(wanted - 1) % PER_PAGE];
  if (!result) throw new OracleError(`page ${page} shows ${results.length} results, not result ${wanted}`);
  return act.click(result);
};
