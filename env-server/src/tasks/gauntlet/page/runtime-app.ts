import type { PagePlan, PageStatus, PageView, Renderer } from './contract.js';
import type { StepHandle, makePuzzleContext } from './runtime-context.js';

/**
 * The Gauntlet single-page app. Shipped to the page as source text (see build-app.ts), so it
 * uses only its arguments and browser globals. Client-side routing: `/gauntlet/step/N` changes
 * only by solving step N-1; a fresh load can open step 1 alone (progress restarts, since it
 * lives in this page, not the URL) and shows a locked page for any later step.
 */
export function runGauntletApp(
  makeContext: typeof makePuzzleContext,
  renderers: Record<string, Renderer<unknown>>,
): void {
  const STORAGE_KEY = 'gauntlet.run';
  const root = document.getElementById('app') as HTMLElement;
  let plan: PagePlan | null = null;
  let view: PageView = 'empty';
  let index = 0;
  let solved = 0;
  let wrongCount = 0;
  let lastWrong = false;
  let failCount = 0;
  let error = '';
  let accepted = '';
  let current: StepHandle | null = null;

  const el = (tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    node.append(...children);
    return node;
  };
  const total = () => plan?.steps.length ?? 0;
  const stepUrl = (n: number) => `/gauntlet/step/${n}`;
  const canonicalUrl = () =>
    view === 'done' ? '/gauntlet/complete' : view === 'step' ? stepUrl(index + 1) : location.pathname;

  function navigate(url: string, replace: boolean): void {
    if (location.pathname === url) return;
    if (replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
  }

  function clearSiteStorage(): void {
    localStorage.clear();
    for (const part of document.cookie.split(';')) {
      const name = part.split('=')[0]!.trim();
      if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    }
  }

  function endStep(): void {
    current?.dispose();
    current = null;
  }

  function showMessage(next: PageView, heading: string, ...body: (Node | string)[]): void {
    endStep();
    view = next;
    document.title = `The Gauntlet — ${heading}`;
    root.replaceChildren(el('main', {}, el('h1', {}, 'The Gauntlet'), el('h2', {}, heading), ...body));
  }

  function showStep(i: number, replace: boolean): void {
    endStep();
    const steps = plan!.steps;
    const step = steps[i]!;
    view = 'step';
    index = i;
    accepted = step.code;
    navigate(stepUrl(i + 1), replace);
    document.title = `The Gauntlet — step ${i + 1} of ${steps.length}`;
    const instructions = el('section', { 'aria-label': 'Instructions' });
    const revealSlot = el('div', { class: 'reveal-slot' });
    const input = el('input', {
      type: 'text',
      name: 'code',
      'aria-label': 'Code',
      autocomplete: 'off',
      spellcheck: 'false',
    }) as HTMLInputElement;
    const form = el('form', { 'aria-label': 'Code entry' }, input, el('button', { type: 'submit' }, 'Submit code'));
    const alertSlot = el('div', { class: 'alert-slot' });
    const status = el('p', { role: 'status', 'aria-label': 'Puzzle status' });
    const area = el('section', { 'aria-label': 'Puzzle', class: 'puzzle' });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submit(input.value, alertSlot);
    });
    root.replaceChildren(
      el('header', {}, el('h1', {}, 'The Gauntlet'), el('p', {}, `Solved ${solved} of ${steps.length}`)),
      el(
        'main',
        {},
        el('h2', {}, `Step ${i + 1} of ${steps.length}: ${step.title}`),
        instructions,
        revealSlot,
        form,
        alertSlot,
        status,
        area,
      ),
    );
    window.scrollTo(0, 0);
    const render = renderers[step.type];
    current = makeContext(step, area, {
      revealSlot,
      instructions,
      status,
      media: plan!.media,
      onReveal: (code) => {
        accepted = code;
      },
      onFail: () => {
        failCount += 1;
      },
    });
    try {
      if (!render) throw new Error(`no page code for challenge type ${step.type}`);
      render(current.ctx);
    } catch (err) {
      error = `${step.type}: ${(err as Error).message}`;
      status.textContent = `This puzzle failed to load (${error}).`;
    }
  }

  function submit(value: string, alertSlot: HTMLElement): void {
    const typed = value.trim().toUpperCase();
    if (accepted !== '' && typed === accepted) {
      lastWrong = false;
      solved += 1;
      if (index + 1 < total()) showStep(index + 1, false);
      else {
        showMessage('done', `All ${total()} steps solved`, el('p', {}, 'The Gauntlet is complete.'));
        navigate('/gauntlet/complete', false);
      }
      return;
    }
    wrongCount += 1;
    lastWrong = true;
    const said = typed === '' ? 'An empty code' : `"${typed.slice(0, 12)}"`;
    alertSlot.replaceChildren(
      el(
        'p',
        { role: 'alert' },
        `${said} is not the code for step ${index + 1}. Solve the puzzle to reveal the right one.`,
      ),
    );
  }

  function start(next: PagePlan): void {
    plan = next;
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    clearSiteStorage();
    solved = 0;
    wrongCount = 0;
    failCount = 0;
    lastWrong = false;
    error = '';
    showStep(0, true);
  }

  function status(): PageStatus {
    const step = plan?.steps[index];
    return {
      runId: plan?.runId ?? '',
      view,
      step: view === 'done' ? total() + 1 : index + 1,
      total: total(),
      type: view === 'step' ? (step?.type ?? '') : '',
      solved,
      wrongCount,
      lastWrong,
      failCount,
      error,
    };
  }

  /** A fresh load: only step 1 may be opened directly; progress is never restored from the URL. */
  function boot(): void {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    plan = stored ? (JSON.parse(stored) as PagePlan) : null;
    const wanted = /^\/gauntlet\/step\/(\d+)$/.exec(location.pathname)?.[1];
    if (!plan) {
      showMessage('empty', 'No run loaded', el('p', {}, 'Reset the environment to start a Gauntlet run.'));
    } else if (location.pathname === '/gauntlet/' || wanted === '1') {
      showStep(0, true);
    } else {
      const what = wanted ? `Step ${wanted}` : 'This page';
      showMessage(
        'locked',
        `${what} cannot be opened directly`,
        el('p', {}, 'Steps open only by solving the ones before them, starting at step 1.'),
        el('a', { href: '/gauntlet/' }, 'Go to step 1'),
      );
    }
  }

  // Back/forward must not change the step: put the current step's URL back.
  window.addEventListener('popstate', () => navigate(canonicalUrl(), false));
  const clearCounters = () => {
    wrongCount = 0;
    failCount = 0;
    lastWrong = false;
  };
  (window as unknown as { gauntletApp: unknown }).gauntletApp = { start, status, clearCounters };
  boot();
}
