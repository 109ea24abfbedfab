import { act, parseAxtree, mustFind, fromGoal, type OraclePolicy } from '../oracle.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const CALENDAR_TITLE = new RegExp(`^(${MONTHS.join('|')}) (\\d{4})$`);

/** Open the calendar, page to the goal's month with Prev/Next, click the day, Submit. */
export const chooseDateOracle: OraclePolicy = (view) => {
  const date = fromGoal(view.goal, /^Select (\d\d\/\d\d\/\d{4}) /);
  const [month, day, year] = date.split('/').map(Number) as [number, number, number];
  const nodes = parseAxtree(view.axtree_txt);
  const field = mustFind(nodes, 'textbox', (name) => name.startsWith('Date'));
  if (field.value === date) return act.click(mustFind(nodes, 'button', (name) => name === 'Submit'));
  const title = nodes.map((n) => (n.role === 'StaticText' ? CALENDAR_TITLE.exec(n.name) : null)).find(Boolean);
  if (!title) return act.click(field);
  const shown = Number(title[2]) * 12 + MONTHS.indexOf(title[1]!);
  const wanted = year * 12 + month - 1;
  if (shown < wanted) return act.click(mustFind(nodes, 'button', (name) => name === 'Next'));
  if (shown > wanted) return act.click(mustFind(nodes, 'button', (name) => name === 'Prev'));
  return act.click(mustFind(nodes, 'button', (name) => name === String(day)));
};
