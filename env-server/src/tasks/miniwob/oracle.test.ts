import { describe, expect, it } from 'vitest';
import type { OracleView } from '../task.js';
import { clickButtonOracle } from './click-button/oracle.js';
import { clickLinkOracle } from './click-link/oracle.js';
import { clickTestOracle } from './click-test/oracle.js';
import { enterTextOracle } from './enter-text/oracle.js';
import { loginUserOracle } from './login-user/oracle.js';
import { OracleError, pyString } from './oracle.js';

/** An observation shaped like BrowserGym's real AXTree text (tabs, StaticText children, extras). */
function view(goal: string, ...lines: string[]): OracleView {
  const axtree_txt = [
    `RootWebArea 'Task', focused`,
    `\tStaticText ${pyString(goal)}`,
    ...lines.map((l) => `\t${l}`),
  ].join('\n');
  return {
    goal,
    axtree_txt,
    pruned_html: '',
    url: 'http://tasks.gauntlet.test/miniwob/task.html',
    focused_element_bid: '',
  };
}

describe('click oracles', () => {
  it('click-test clicks the "Click Me!" button', () => {
    expect(clickTestOracle(view('Click the button.', `[13] button 'Click Me!', clickable, visible`))).toBe(
      `click('13')`,
    );
  });

  it('click-button clicks the named button, not a neighbour', () => {
    const v = view('Click on the "hand" button.', `[8] button 'hair'`, `[9] button 'hand'`, `\tStaticText 'hand'`);
    expect(clickButtonOracle(v)).toBe(`click('9')`);
  });

  it('click-link clicks the named link among words', () => {
    const v = view(
      'Click on the link "tree".',
      `[4] paragraph ''`,
      `\tStaticText 'line reed'`,
      `\t[6] link 'pear', url='#'`,
      `\t[7] link 'tree'`,
    );
    expect(clickLinkOracle(v)).toBe(`click('7')`);
  });

  it('fails with OracleError when the target is missing', () => {
    expect(() => clickButtonOracle(view('Click on the "oak" button.', `[8] button 'elm'`))).toThrow(OracleError);
  });
});

describe('multi-step oracles pick the next needed action', () => {
  const goal = 'Enter "Leaf" into the text field and press Submit.';

  it('enter-text fills, then submits once the field shows the text', () => {
    expect(enterTextOracle(view(goal, `[14] textbox ''`, `[16] button 'Submit'`))).toBe(`fill('14', 'Leaf')`);
    expect(enterTextOracle(view(goal, `[14] textbox '' value='Lea'`, `[16] button 'Submit'`))).toBe(
      `fill('14', 'Leaf')`,
    );
    expect(
      enterTextOracle(
        view(goal, `[14] textbox '' value='Leaf', focused`, `\t\tStaticText 'Leaf'`, `[16] button 'Submit'`),
      ),
    ).toBe(`click('16')`);
  });

  it('login-user fills username, then password (masked by Chrome), then logs in', () => {
    const login = 'Enter the username "mina" and the password "able57" into the text fields and press login.';
    const page = (user: string, pass: string) =>
      view(
        login,
        `[20] LabelText ''`,
        `\tStaticText 'Username'`,
        `[21] textbox 'Username'${user}`,
        `[23] textbox 'Password'${pass}`,
        `[25] button 'Login'`,
      );
    expect(loginUserOracle(page('', ''))).toBe(`fill('21', 'mina')`);
    expect(loginUserOracle(page(` value='mina'`, ''))).toBe(`fill('23', 'able57')`);
    expect(loginUserOracle(page(` value='mina'`, ` value='•••'`))).toBe(`fill('23', 'able57')`);
    expect(loginUserOracle(page(` value='mina'`, ` value='••••••'`))).toBe(`click('25')`);
  });
});

describe('pyString', () => {
  it('quotes like Python repr for the action parser', () => {
    expect(pyString(`it's a\\b\n`)).toBe(String.raw`'it\'s a\\b\n'`);
  });
});
