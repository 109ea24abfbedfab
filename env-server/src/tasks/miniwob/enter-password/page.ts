import { taskPageHtml } from '../page-shell.js';

/**
 * A password and its confirmation (both masked) and Submit; Submit wins only when both hold the
 * seeded password exactly.
 */
export const enterPasswordHtml = taskPageHtml(
  'Enter Password Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el } = gauntletTask;
    const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
    const password = Array.from({ length: rng.int(3, 7) }, () => rng.pick(alphabet)).join('');
    const first = el('input', { type: 'password', id: 'password' });
    const again = el('input', { type: 'password', id: 'verify' });
    const submit = el('button', {}, ['Submit']);
    submit.addEventListener('click', () => {
      if (first.value === password && again.value === password) end(1, 'entered the password twice');
      else end(-1, first.value === password ? 'the verification differs' : 'wrong password');
    });
    const gap = 'margin-top: ' + rng.int(2, 8) + 'px;';
    area.append(el('div', { style: 'margin: ' + rng.int(0, 50) + 'px 0 0 ' + rng.int(2, 34) + 'px;' }, [
      el('div', {}, [el('label', { for: 'password' }, ['Password'])]),
      el('div', {}, [first]),
      el('div', { style: gap }, [el('label', { for: 'verify' }, ['Verify password'])]),
      el('div', {}, [again]),
      el('div', { style: gap }, [submit]),
    ]));
    return 'Enter the password "' + password + '" into both text fields and press Submit.';
  },
});
`,
);
