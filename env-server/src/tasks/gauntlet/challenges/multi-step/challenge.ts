import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  tabs: string[];
  tab: string;
  setting: string;
  options: string[];
  choice: string;
}

/** Three stages: pick the right tab, open its settings dialog, choose the stated option and confirm (a wrong tab's settings or a wrong choice locks). */
export const multiStep = defineChallenge<Params>({
  type: 'multi_step',
  title: 'Multi-step',
  generate(rng) {
    const names = rng.sample(WORDS, 11);
    const tabs = names.slice(0, rng.int(4, 5));
    const options = names.slice(5, 11);
    return {
      tabs,
      tab: rng.pick(tabs),
      setting: rng.pick(['Security level', 'Access tier', 'Vault mode']),
      options,
      choice: rng.pick(options),
    };
  },
  render: (ctx) => {
    const { tabs, tab, setting, options, choice } = ctx.params;
    ctx.instruct(
      `Three stages: open the "${tab}" tab, press its "Open settings" button, then in the dialog choose "${choice}" for "${setting}" and press "Confirm". Opening another tab's settings or confirming another choice locks the puzzle.`,
    );
    const list = ctx.el('div', { role: 'tablist', 'aria-label': 'Sections' });
    const panels = ctx.el('div', {});
    let stage = 1;
    const progress = () => ctx.say(`Stage ${stage} of 3.`);
    const openDialog = () => {
      const select = ctx.el(
        'select',
        { 'aria-label': setting },
        ctx.el('option', { value: '' }, 'Choose…'),
        ...options.map((o) => ctx.el('option', { value: o }, o)),
      ) as HTMLSelectElement;
      const confirm = ctx.el('button', { type: 'button' }, 'Confirm');
      const cancel = ctx.el('button', { type: 'button' }, 'Cancel');
      const dialog = ctx.el(
        'div',
        { role: 'dialog', 'aria-modal': 'true', 'aria-label': `${tab} settings`, class: 'dialog' },
        ctx.el('h4', {}, `${tab} settings`),
        ctx.el('label', {}, `${setting} `, select),
        ' ',
        confirm,
        ' ',
        cancel,
      );
      confirm.addEventListener('click', () => {
        if (select.value !== choice)
          return ctx.lock(`"${select.value || 'nothing'}" is not the requested ${setting.toLowerCase()}.`, () =>
            dialog.remove(),
          );
        dialog.remove();
        stage = 3;
        ctx.say('All three stages done.');
        ctx.reveal();
      });
      cancel.addEventListener('click', () => dialog.remove());
      ctx.area.append(dialog);
    };
    tabs.forEach((name, i) => {
      const button = ctx.el(
        'button',
        { type: 'button', role: 'tab', 'aria-selected': i === 0 ? 'true' : 'false' },
        name,
      );
      const open = ctx.el('button', { type: 'button' }, 'Open settings');
      const panel = ctx.el(
        'div',
        { role: 'tabpanel', 'aria-label': name },
        ctx.el('p', {}, `The ${name} section.`),
        open,
      );
      panel.hidden = i !== 0;
      open.addEventListener('click', () => {
        if (name !== tab) return ctx.lock(`The ${name} section has no settings for this step.`);
        if (ctx.area.querySelector('.dialog')) return;
        stage = Math.max(stage, 2);
        progress();
        openDialog();
      });
      button.addEventListener('click', () => {
        for (const other of list.children) other.setAttribute('aria-selected', String(other === button));
        for (const other of panels.children) (other as HTMLElement).hidden = other !== panel;
      });
      list.append(button);
      panels.append(panel);
    });
    ctx.area.append(list, panels);
    progress();
  },
  css: `.puzzle [role="tablist"] button[aria-selected="true"] { font-weight: bold; border-bottom: 3px solid #36c; }
  .puzzle .dialog { position: absolute; top: 30px; left: 60px; padding: 16px; background: #fff; border: 2px solid #446; box-shadow: 0 4px 16px #0004; }`,
});
