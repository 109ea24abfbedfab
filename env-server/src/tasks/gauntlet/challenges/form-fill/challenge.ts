import { defineChallenge } from '../../challenge.js';
import { FIRST_NAMES, LAST_NAMES, WORDS } from '../words.js';

interface Field {
  label: string;
  kind: 'text' | 'email' | 'number' | 'select';
  value: string;
  options?: string[];
}

interface Params {
  fields: Field[];
  terms: string;
  submit: string;
}

/** Fill a validated form with the stated values, tick the box, submit. */
export const formFill = defineChallenge<Params>({
  type: 'form_fill',
  title: 'Form fill',
  generate(rng) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const plans = rng.sample(WORDS, 4);
    const fields: Field[] = [
      { label: 'Full name', kind: 'text', value: `${first} ${last}` },
      { label: 'Email', kind: 'email', value: `${first}.${last}${rng.int(1, 99)}@example.org`.toLowerCase() },
      { label: 'Age', kind: 'number', value: String(rng.int(18, 90)) },
      { label: 'Plan', kind: 'select', value: plans[rng.int(0, 3)]!, options: plans },
    ];
    if (rng.chance(0.5))
      fields.push({ label: 'City', kind: 'text', value: rng.pick(WORDS) + rng.pick(['ford', 'ton', 'ville', 'burg']) });
    return {
      fields: rng.shuffle(fields),
      terms: rng.pick(['I accept the terms', 'I agree to the rules', 'I confirm these details']),
      submit: rng.pick(['Register', 'Send form', 'Sign up']),
    };
  },
  render: (ctx) => {
    const { fields, terms, submit } = ctx.params;
    const wanted = fields.map((f) => `${f.label} = "${f.value}"`).join('; ');
    ctx.instruct(`Fill in the form: ${wanted}. Tick "${terms}", then press "${submit}".`);
    const inputs = fields.map((field) => {
      if (field.kind === 'select') {
        const select = ctx.el(
          'select',
          { name: field.label },
          ctx.el('option', { value: '' }, 'Choose…'),
          ...field.options!.map((o) => ctx.el('option', { value: o }, o)),
        );
        return { field, control: select as HTMLSelectElement };
      }
      const attrs: Record<string, string | number> = { type: field.kind, name: field.label, required: 'required' };
      if (field.kind === 'number') Object.assign(attrs, { min: 18, max: 99 });
      return { field, control: ctx.el('input', attrs) as HTMLInputElement };
    });
    const tick = ctx.el('input', { type: 'checkbox', name: 'terms' }) as HTMLInputElement;
    const form = ctx.el(
      'form',
      { 'aria-label': 'Details', novalidate: true },
      ...inputs.map(({ field, control }) => ctx.el('label', {}, `${field.label} `, control)),
      ctx.el('label', {}, tick, ` ${terms}`),
      ctx.el('button', { type: 'submit' }, submit),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const wrong = inputs.find(({ field, control }) => control.value.trim() !== field.value);
      if (wrong) return ctx.fail(`"${wrong.field.label}" does not match the requested value.`);
      if (!tick.checked) return ctx.fail(`Tick "${terms}" first.`);
      ctx.say('Form accepted.');
      ctx.reveal();
    });
    ctx.area.append(form);
  },
});
