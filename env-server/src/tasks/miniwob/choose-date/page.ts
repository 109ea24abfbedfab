import { taskPageHtml } from '../page-shell.js';

/**
 * A read-only date field that opens a month calendar (Prev/Next and one button per day) when
 * clicked, and Submit. Picking a day writes MM/DD/YYYY and closes the calendar; Submit wins only
 * on the goal's date. The calendar opens on a seeded month up to 3 months from the target.
 */
export const chooseDateHtml = taskPageHtml(
  'Choose Date Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el } = gauntletTask;
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
      'October', 'November', 'December'];
    const two = (n) => (n < 10 ? '0' : '') + n;
    const daysIn = (year, month) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const year = rng.int(2015, 2024);
    const month = rng.int(0, 11);
    const day = rng.int(1, daysIn(year, month));
    const target = two(month + 1) + '/' + two(day) + '/' + year;
    let shownMonth = year * 12 + month + rng.int(-3, 3);

    const input = el('input', { type: 'text', id: 'datepicker', readonly: '', placeholder: 'MM/DD/YYYY' });
    const calendar = el('div', { role: 'group', 'aria-label': 'Calendar', style: 'position: absolute; z-index: 1;' +
      ' background: #fff; border: 1px solid #999; padding: 2px; width: 144px;' });
    function drawCalendar() {
      const y = Math.floor(shownMonth / 12);
      const m = shownMonth % 12;
      const prev = el('button', { 'aria-label': 'Prev', style: 'float: left; padding: 0 3px;' }, ['<']);
      const next = el('button', { 'aria-label': 'Next', style: 'float: right; padding: 0 3px;' }, ['>']);
      prev.addEventListener('click', () => { shownMonth -= 1; drawCalendar(); });
      next.addEventListener('click', () => { shownMonth += 1; drawCalendar(); });
      const grid = el('div', { style: 'display: grid; grid-template-columns: repeat(7, 20px); clear: both;' });
      const blank = new Date(Date.UTC(y, m, 1)).getUTCDay();
      for (let i = 0; i < blank; i++) grid.append(el('span'));
      for (let d = 1; d <= daysIn(y, m); d++) {
        const cell = el('button', { style: 'padding: 0; font-size: 9px; width: 19px;' }, [String(d)]);
        cell.addEventListener('click', () => {
          input.value = two(m + 1) + '/' + two(d) + '/' + y;
          calendar.remove();
        });
        grid.append(cell);
      }
      calendar.replaceChildren(prev, next, el('div', { style: 'text-align: center;' }, [months[m] + ' ' + y]), grid);
    }
    input.addEventListener('click', () => {
      if (calendar.isConnected) return;
      drawCalendar();
      input.after(calendar);
    });
    const submit = el('button', {}, ['Submit']);
    submit.addEventListener('click', () => {
      if (input.value === target) end(1, 'submitted ' + target);
      else end(-1, 'submitted "' + input.value + '" instead of ' + target);
    });
    area.append(el('div', { style: 'margin: 2px 0 0 ' + rng.int(2, 10) + 'px;' }, [
      el('label', { for: 'datepicker' }, ['Date: ']),
      el('div', { style: 'position: relative;' }, [input]),
      el('div', { style: 'margin-top: ' + rng.int(4, 20) + 'px;' }, [submit]),
    ]));
    return 'Select ' + target + ' as the date and hit Submit.';
  },
});
`,
);
