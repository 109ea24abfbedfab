import { act, find, OracleError, parseAxtree, mustFind, fromGoal, type OraclePolicy } from '../oracle.js';

type Wish = { kind: 'Delete' | 'Star' } | { kind: 'Reply'; text: string } | { kind: 'Forward'; to: string };

function wish(goal: string): Wish {
  if (goal.includes('the Delete button')) return { kind: 'Delete' };
  if (goal.includes('the Star button')) return { kind: 'Star' };
  if (goal.includes('reply to them')) return { kind: 'Reply', text: fromGoal(goal, /with the text "(.*)"\.$/) };
  if (goal.includes('forward that email'))
    return { kind: 'Forward', to: fromGoal(goal, /forward that email to (\S+)\.$/) };
  throw new OracleError(`unknown email task in goal ${JSON.stringify(goal)}`);
}

/** Open the sender's email (Back out of another one), then delete, star, or compose and Send. */
export const emailInboxOracle: OraclePolicy = (view) => {
  const sender = fromGoal(view.goal, /^Find the email by (\S+) and /);
  const want = wish(view.goal);
  const nodes = parseAxtree(view.axtree_txt);
  const button = (label: string) => mustFind(nodes, 'button', (name) => name === label);
  const message = find(nodes, 'textbox', (name) => name === 'Message');
  if (message && want.kind === 'Reply')
    return message.value === want.text ? act.click(button('Send')) : act.fill(message, want.text);
  if (message && want.kind === 'Forward') {
    const to = mustFind(nodes, 'textbox', (name) => name === 'To:');
    return to.value === want.to ? act.click(button('Send')) : act.fill(to, want.to);
  }
  const from = nodes.map((n) => (n.role === 'StaticText' ? /^From: (.+)$/.exec(n.name)?.[1] : undefined)).find(Boolean);
  if (from !== undefined) return act.click(button(from === sender ? want.kind : 'Back'));
  return act.click(mustFind(nodes, 'link', (name) => name.startsWith(`${sender} `)));
};
