import {
  act,
  OracleError,
  parseAxtree,
  quotedValues,
  mustFind,
  fromGoal,
  type Actionable,
  type AxNode,
  type OraclePolicy,
} from '../oracle.js';

interface Offer {
  book: Actionable;
  minutes: number;
  price: number;
}

/** Each "Book flight for $N" button with the "Duration: Xh Ym" line printed before it. */
function offers(nodes: AxNode[]): Offer[] {
  const found: Offer[] = [];
  let minutes: number | undefined;
  for (const node of nodes) {
    const duration = /^Duration: (\d+)h (\d+)m$/.exec(node.name);
    if (duration) minutes = Number(duration[1]) * 60 + Number(duration[2]);
    const price = /^Book flight for \$(\d+)$/.exec(node.name);
    if (!price || node.role !== 'button' || node.bid === undefined) continue;
    if (minutes === undefined) throw new OracleError(`no duration before "${node.name}"`);
    found.push({ book: node as Actionable, minutes, price: Number(price[1]) });
    minutes = undefined;
  }
  return found;
}

/** Fill the search form field by field, Search, then book the shortest or cheapest offer. */
export const bookFlightOracle: OraclePolicy = (view) => {
  const [from, to, date] = quotedValues(view.goal);
  if (date === undefined) throw new OracleError(`expected route and date in goal ${JSON.stringify(view.goal)}`);
  const criterion = fromGoal(view.goal, /^Book the (shortest|cheapest) /);
  const nodes = parseAxtree(view.axtree_txt);
  const found = offers(nodes);
  if (found.length > 0) {
    const key = (offer: Offer) => (criterion === 'shortest' ? offer.minutes : offer.price);
    return act.click(found.reduce((best, offer) => (key(offer) < key(best) ? offer : best)).book);
  }
  const fromList = mustFind(nodes, 'combobox', (name) => name === 'From');
  if (fromList.value !== from) return act.select(fromList, from!);
  const toList = mustFind(nodes, 'combobox', (name) => name === 'To');
  if (toList.value !== to) return act.select(toList, to!);
  const dateField = mustFind(nodes, 'textbox', (name) => name === 'Departure date');
  if (dateField.value !== date) return act.fill(dateField, date);
  return act.click(mustFind(nodes, 'button', (name) => name === 'Search'));
};
