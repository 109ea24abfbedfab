import { taskPageHtml } from '../page-shell.js';

/**
 * A reduced flight search: From and To lists, a departure date typed as MM/DD/YYYY, Search.
 * Searching shows 3–5 flights (times, duration, a "Book flight for $N" button). Booking the
 * goal's shortest or cheapest flight for the goal's route and date wins; any other booking loses.
 */
export const bookFlightHtml = taskPageHtml(
  'Book Flight Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el } = gauntletTask;
    const cities = ['Boston', 'Denver', 'Houston', 'Miami', 'Phoenix', 'Seattle', 'Atlanta', 'Chicago', 'Dallas',
      'Portland', 'Memphis', 'Tucson'];
    const [from, to] = rng.sample(cities, 2);
    const two = (n) => (n < 10 ? '0' : '') + n;
    const date = two(rng.int(1, 12)) + '/' + two(rng.int(1, 28)) + '/' + rng.int(2016, 2024);
    const criterion = rng.pick(['shortest', 'cheapest']);
    // Distinct durations and prices, so exactly one flight is shortest and one cheapest.
    const minutes = rng.sample(Array.from({ length: 40 }, (_, i) => 60 + i * 11), rng.int(3, 5));
    const prices = rng.sample(Array.from({ length: 60 }, (_, i) => 89 + i * 7), minutes.length);
    const flights = minutes.map((length, i) => ({ departs: rng.int(5 * 60, 20 * 60), length, price: prices[i] }));
    const best = flights.reduce((a, b) => (criterion === 'shortest' ? (b.length < a.length ? b : a) : b.price < a.price ? b : a));
    const clock = (m) => two(Math.floor(m / 60) % 24) + ':' + two(m % 60);

    const list = (id, label) => el('select', { id, 'aria-label': label }, [
      el('option', { value: '' }, ['Choose a city']),
      ...cities.map((city) => el('option', { value: city }, [city])),
    ]);
    const fromList = list('flight-from', 'From');
    const toList = list('flight-to', 'To');
    const dateField = el('input', { type: 'text', id: 'datepicker', 'aria-label': 'Departure date',
      placeholder: 'MM/DD/YYYY', style: 'width: 90px;' });
    const search = el('button', {}, ['Search']);
    const form = el('div', { style: 'margin: 2px 3px;' }, [
      el('div', {}, ['From: ', fromList]),
      el('div', { style: 'margin-top: 4px;' }, ['To: ', toList]),
      el('div', { style: 'margin-top: 4px;' }, ['Date: ', dateField]),
      el('div', { style: 'margin-top: ' + rng.int(4, 16) + 'px;' }, [search]),
    ]);
    search.addEventListener('click', () => {
      const asked = { from: fromList.value, to: toList.value, date: dateField.value };
      const rows = flights.map((flight) => {
        const book = el('button', { style: 'padding: 0 3px;' }, ['Book flight for $' + flight.price]);
        book.addEventListener('click', () => {
          const route = asked.from === from && asked.to === to && asked.date === date;
          if (route && flight === best) end(1, 'booked the ' + criterion + ' flight');
          else if (!route) end(-1, 'booked a flight for another route or date');
          else end(-1, 'booked a flight that is not the ' + criterion);
        });
        const hours = Math.floor(flight.length / 60) + 'h ' + (flight.length % 60) + 'm';
        return el('div', { style: 'border-top: 1px solid #ccc; padding: 2px 0; font-size: 9px;' }, [
          el('div', {}, ['Departs ' + clock(flight.departs) + ', arrives ' + clock(flight.departs + flight.length)]),
          el('div', {}, ['Duration: ' + hours]),
          book,
        ]);
      });
      form.replaceWith(el('div', { style: 'margin: 2px 3px; height: 156px; overflow-y: auto;' }, [
        el('div', { style: 'font-weight: bold;' }, [asked.from + ' to ' + asked.to + ', ' + asked.date]),
        ...rows,
      ]));
    });
    area.append(form);
    return 'Book the ' + criterion + ' one-way flight from "' + from + '" to "' + to + '" on "' + date + '".';
  },
});
`,
);
