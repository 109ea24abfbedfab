import { find, click, parseAxtree, type OraclePolicy } from '../oracle.js';
import { fromGoal } from '../oracle-extras.js';

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
  const field = find(nodes, 'textbox', (name) => name.startsWith('Date'));
  if (field.value === date) return click(find(nodes, 'button', (name) => name === 'Submit'));
  const title = nodes.map((n) => (n.role === 'StaticText' ? CALENDAR_TITLE.exec(n.name) : null)).find(Boolean);
  if (!title) return click(field);
  const shown = Number(title[2]) * 12 + MONTHS.indexOf(title[1]!);
  const wanted = year * 12 + month - 1;
  if (shown < wanted) return click(find(nodes, 'button', (name) => name === 'Next'));
  if (shown > wanted) return click(find(nodes, 'button', (name) => name === 'Prev'));
  return click(find(nodes, 'button', (name) => name === String(day)));
};
