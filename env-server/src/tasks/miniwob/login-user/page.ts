import { taskPageHtml } from '../page-shell.js';

/**
 * Username and password fields and a Login button; Login wins only when both match. Labels are
 * tied to their inputs (`for`) so the textboxes carry names in the accessibility tree.
 */
export const loginUserHtml = taskPageHtml(
  'Login User Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words, names } = gauntletTask;
    const username = rng.pick(names);
    const password = rng.pick(words) + rng.int(10, 99);
    const user = el('input', { type: 'text', id: 'username' });
    const pass = el('input', { type: 'password', id: 'password' });
    const login = el('button', { id: 'subbtn' }, ['Login']);
    login.addEventListener('click', () => {
      const userOk = user.value === username;
      const passOk = pass.value === password;
      if (userOk && passOk) end(1, 'logged in');
      else end(-1, 'wrong ' + (userOk ? 'password' : passOk ? 'username' : 'username and password'));
    });
    const gap = 'margin-top: ' + rng.int(2, 8) + 'px;';
    const form = el('div', { style: 'margin: ' + rng.int(0, 50) + 'px 0 0 ' + rng.int(2, 34) + 'px;' }, [
      el('div', {}, [el('label', { for: 'username' }, ['Username'])]),
      el('div', {}, [user]),
      el('div', { style: gap }, [el('label', { for: 'password' }, ['Password'])]),
      el('div', {}, [pass]),
      el('div', { style: gap }, [login]),
    ]);
    area.append(form);
    return 'Enter the username "' + username + '" and the password "' + password + '" into the text fields and press login.';
  },
});
`,
);
