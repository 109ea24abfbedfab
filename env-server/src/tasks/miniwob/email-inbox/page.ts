import { taskPageHtml } from '../page-shell.js';

/**
 * A reduced inbox: 3–5 emails; opening one shows it with Back, Reply, Forward, Star and Delete.
 * The goal asks to delete, star, reply to or forward the email of one sender. Doing that to
 * that email wins; a terminal move (Delete, Star, Send) on anything else, or a reply or forward
 * with the wrong text or recipient, loses.
 */
export const emailInboxHtml = taskPageHtml(
  'Email Inbox Task',
  String.raw`
gauntletTask.define({
  render(rng, area, end) {
    const { el, words, names } = gauntletTask;
    const cap = (w) => w[0].toUpperCase() + w.slice(1);
    const people = rng.sample(names, 6).map(cap);
    const emails = people.slice(0, rng.int(3, 5)).map((from) => ({
      from,
      subject: cap(rng.pick(words)) + ' ' + rng.pick(words),
      body: rng.sample(words, rng.int(6, 12)).join(' ') + '.',
    }));
    const mail = rng.pick(emails);
    const kind = rng.pick(['delete', 'star', 'reply', 'forward']);
    const replyText = rng.sample(words, rng.int(1, 3)).join(' ');
    const forwardTo = people[5];
    const view = el('div', { style: 'margin: 2px 3px;' });
    const judge = (email, did, detail) => {
      const ok = email === mail && did === kind && detail === (kind === 'reply' ? replyText : kind === 'forward' ? forwardTo : '');
      end(ok ? 1 : -1, did + ' the email from ' + email.from + (detail ? ' (' + detail + ')' : ''));
    };
    function inbox() {
      const rows = emails.map((email) => {
        const row = el('a', { href: '#', style: 'display: block; margin-bottom: 4px; color: #000;' }, [
          el('strong', {}, [email.from]), ' ', email.subject,
        ]);
        row.addEventListener('click', (event) => {
          event.preventDefault();
          open(email);
        });
        return row;
      });
      view.replaceChildren(el('div', { style: 'font-weight: bold; margin-bottom: 4px;' }, ['Inbox']), ...rows);
    }
    function button(label, onClick) {
      const b = el('button', { style: 'margin: 0 2px 2px 0; padding: 0 3px;' }, [label]);
      b.addEventListener('click', onClick);
      return b;
    }
    function open(email) {
      view.replaceChildren(
        el('div', {}, [button('Back', inbox), button('Reply', () => compose(email, 'reply')),
          button('Forward', () => compose(email, 'forward'))]),
        el('div', {}, [button('Star', () => judge(email, 'star', '')), button('Delete', () => judge(email, 'delete', ''))]),
        el('div', {}, ['From: ' + email.from]),
        el('div', { style: 'font-weight: bold;' }, [email.subject]),
        el('p', { style: 'margin: 2px 0;' }, [email.body]),
      );
    }
    function compose(email, how) {
      const to = el('input', { type: 'text', id: 'to', style: 'width: 110px;' });
      const text = el('textarea', { id: 'message', rows: '3', style: 'width: 140px;' });
      if (how === 'reply') to.value = email.from;
      else text.value = email.body;
      const send = button('Send', () => judge(email, how, how === 'reply' ? text.value : to.value));
      view.replaceChildren(
        el('div', {}, [button('Cancel', () => open(email)), send]),
        el('div', {}, [el('label', { for: 'to' }, ['To: ']), to]),
        el('div', {}, [el('label', { for: 'message' }, ['Message'])]),
        text,
      );
    }
    inbox();
    area.append(view);
    const goals = {
      delete: 'Find the email by ' + mail.from + ' and click the Delete button to remove it.',
      star: 'Find the email by ' + mail.from + ' and click the Star button to mark it as important.',
      reply: 'Find the email by ' + mail.from + ' and reply to them with the text "' + replyText + '".',
      forward: 'Find the email by ' + mail.from + ' and forward that email to ' + forwardTo + '.',
    };
    return goals[kind];
  },
});
`,
);
