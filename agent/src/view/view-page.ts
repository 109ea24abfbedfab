/**
 * The viewer's one page: inline style and script, nothing fetched from elsewhere (the server's
 * content security policy forbids it). Every value from the run is set as text, never as HTML,
 * since model replies and page text are untrusted.
 */
export const VIEW_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gauntlet-agent view</title>
<style>
  [hidden] { display: none !important; }
  body { margin: 0; font: 13px/1.4 system-ui, sans-serif; display: flex; height: 100vh; color: #1c2330; }
  nav { width: 240px; overflow-y: auto; border-right: 1px solid #ccd; background: #f4f5f8; flex: none; }
  nav h1 { font-size: 14px; margin: 10px; }
  nav ol { list-style: none; margin: 0; padding: 0; }
  nav li { padding: 6px 10px; cursor: pointer; border-bottom: 1px solid #e2e4ea; }
  nav li.current { background: #dbe4ff; }
  .success { color: #137333; } .fail, .timeout, .infra_error { color: #b3261e; }
  main { flex: 1; overflow-y: auto; padding: 10px 14px; }
  #timeline { display: flex; flex-wrap: wrap; gap: 3px; margin: 6px 0; }
  #timeline button { min-width: 26px; border: 1px solid #99a; background: #fff; cursor: pointer; }
  #timeline button.current { background: #3d5afe; color: #fff; }
  #timeline button.err { border-color: #b3261e; }
  #timeline button.rewarded { border-color: #137333; border-width: 2px; }
  .columns { display: flex; gap: 14px; align-items: flex-start; }
  #frame { position: relative; display: inline-block; max-width: 60%; flex: none; border: 1px solid #ccd; overflow: hidden; }
  #page { position: relative; }
  #shot { display: block; max-width: 100%; }
  #frame.zoomed #page { position: absolute; }
  #frame.zoomed #shot { width: 100%; max-width: none; }
  #marks { position: absolute; inset: 0; }
  .mark { position: absolute; border: 3px solid #ff1744; box-sizing: border-box; pointer-events: none; }
  .mark.point { width: 16px; height: 16px; border-radius: 50%; transform: translate(-50%, -50%); }
  .mark span { position: absolute; bottom: calc(100% + 3px); left: -3px; background: #ff1744; color: #fff; font-size: 11px; line-height: 15px; padding: 0 3px; white-space: nowrap; }
  .mark span.below { bottom: auto; top: calc(100% + 3px); }
  #details { flex: 1; min-width: 0; }
  h2 { font-size: 15px; margin: 4px 0; } h3 { font-size: 12px; margin: 10px 0 2px; text-transform: uppercase; color: #556; }
  pre { tab-size: 2; white-space: pre-wrap; word-break: break-word; margin: 0; background: #f7f7fa; padding: 6px; border: 1px solid #e2e4ea; }
  #diff { max-height: 60vh; overflow-y: auto; }
  #diff .add { background: #e6f4ea; } #diff .del { background: #fce8e6; } #diff .fold { color: #889; font-style: italic; }
  .keys { color: #667; font-size: 12px; }
  #note { color: #445; font-size: 12px; }
  #tokens { max-height: 40vh; overflow-y: auto; background: #f7f7fa; padding: 6px; border: 1px solid #e2e4ea; font: 12px/1.7 ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; }
  .tok { border-radius: 2px; padding: 0 1px; margin-right: 1px; }
  .tok.env { background: #e4e4e8; color: #778; }
  .legend { color: #667; font-size: 11px; text-transform: none; }
</style>
</head>
<body>
<nav><h1>Episodes</h1><ol id="episodes"></ol></nav>
<main>
  <h2 id="title">Loading…</h2>
  <div id="note"></div>
  <div class="keys">← → steps · ↑ ↓ episodes</div>
  <div id="timeline"></div>
  <div id="step-label"></div>
  <a id="after" hidden target="_blank">the page after the last action</a>
  <div class="columns">
    <div id="frame"><div id="page"><img id="shot" alt="screenshot of the page before this step"><div id="marks"></div></div></div>
    <div id="details">
      <h3>Parsed action</h3><pre id="action"></pre>
      <div id="text-box"><h3>Model's raw text</h3><pre id="text"></pre></div>
      <h3>Error</h3><pre id="error"></pre>
      <h3>Reward</h3><pre id="reward"></pre>
      <div id="rollout" hidden>
        <h3>Policy version</h3><pre id="version"></pre>
        <h3>Tokens <span class="legend">policy's coloured by logprob (green: likely, red: unlikely) · env's grey (env mask 0, not trained on)</span></h3>
        <div id="tokens"></div>
      </div>
      <h3>AXTree change from the previous step</h3><pre id="diff"></pre>
    </div>
  </div>
</main>
<script>
(() => {
  const $ = (id) => document.getElementById(id);
  let episodes = [];
  let ep = -1;
  let detail = null;
  let step = 0;
  // Opening an episode waits for a fetch; moves made meanwhile (a key pressed twice, a click) wait
  // their turn, so a step change is never applied to the episode being left and then lost.
  let moves = Promise.resolve();
  const inTurn = (move) => {
    moves = moves.then(move).catch((error) => ($('title').textContent = 'Cannot load the run: ' + error));
  };
  const getJson = async (path) => {
    const reply = await fetch(path);
    if (!reply.ok) throw new Error(await reply.text());
    return reply.json();
  };
  const fetchEpisode = async (i) => {
    const reply = await fetch('/api/episodes/' + i);
    if (reply.status === 404) return null;
    if (!reply.ok) throw new Error(await reply.text());
    return reply.json();
  };
  const el = (tag, text, cls) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  };

  async function start() {
    episodes = await getJson('/api/episodes');
    renderList();
    if (episodes.length) await openEpisode(0);
    else $('title').textContent = 'No episodes yet';
  }

  function renderList() {
    const list = $('episodes');
    list.replaceChildren();
    episodes.forEach((e, i) => {
      const item = el('li', undefined, i === ep ? 'current' : '');
      item.dataset.index = String(i);
      item.append(el('div', e.task + ' · seed ' + e.seed));
      item.append(el('div', e.outcome + ' · reward ' + e.reward + ' · ' + e.steps + ' steps', e.outcome));
      item.onclick = () => inTurn(() => openEpisode(i));
      list.append(item);
    });
  }

  async function openEpisode(i) {
    if (i < 0 || i >= episodes.length) return;
    let d = await fetchEpisode(i);
    if (!d || d.id !== episodes[i].id) {
      // The file changed meanwhile (a trainer rewrites the groups it keeps): the list is read
      // again, and the episode asked for opened if it is still there, else the first.
      const wanted = episodes[i].id;
      episodes = await getJson('/api/episodes');
      i = Math.max(0, episodes.findIndex((e) => e.id === wanted));
      d = episodes.length ? await fetchEpisode(i) : null;
      if (!d) {
        [detail, ep] = [null, -1];
        renderList();
        $('title').textContent = 'No episodes yet';
        return;
      }
    }
    detail = d;
    ep = i;
    step = 0;
    renderList();
    document.querySelector('nav li.current')?.scrollIntoView({ block: 'nearest' });
    renderStep();
  }

  function renderStep() {
    const e = episodes[ep];
    $('title').textContent = e.task + ' · seed ' + e.seed + ' · ' + e.outcome + ' · reward ' + e.reward;
    $('title').className = e.outcome;
    $('note').textContent = detail.note || '';
    const timeline = $('timeline');
    timeline.replaceChildren();
    detail.turns.forEach((t, k) => {
      const classes = [k === step ? 'current' : '', t.env_error || t.parse_error ? 'err' : '', t.reward > 0 ? 'rewarded' : ''];
      const button = el('button', String(k + 1), classes.join(' '));
      button.onclick = () => inTurn(() => { step = k; renderStep(); });
      timeline.append(button);
    });
    const t = detail.turns[step];
    document.body.dataset.episode = String(ep);
    document.body.dataset.step = String(t ? step : -1);
    if (!t) {
      $('step-label').textContent = 'No steps' + (detail.error ? ' — ' + detail.error : '');
      for (const id of ['action', 'text', 'error', 'reward', 'diff']) $(id).textContent = '';
      $('rollout').hidden = true;
      $('shot').removeAttribute('src');
      $('marks').replaceChildren();
      return;
    }
    $('step-label').textContent = 'Step ' + (step + 1) + ' of ' + detail.turns.length + ' · ' + t.actor + ' · ' + t.url;
    $('action').textContent = t.action;
    // A person's recorded step has no model reply: the box is hidden rather than left empty.
    $('text-box').hidden = t.text === null;
    $('text').textContent = t.text ?? '';
    const errors = [t.parse_error ? 'no valid action in the reply (played noop())' : '', t.env_error];
    if (t.done && step === detail.turns.length - 1 && detail.error) errors.push(detail.error);
    $('error').textContent = errors.filter(Boolean).join('\\n') || '—';
    $('reward').textContent = String(t.reward) + (t.done ? ' (episode over)' : '');
    const after = $('after');
    after.hidden = !(detail.final_screenshot && step === detail.turns.length - 1);
    if (!after.hidden) after.href = fileUrl(detail.final_screenshot);
    renderDiff(t.diff, step === 0);
    renderRollout(t.rollout);
    const shot = $('shot');
    $('marks').replaceChildren();
    $('frame').hidden = !t.screenshot;
    if (!t.screenshot) return;
    shot.onload = () => {
      zoom(t.focus, shot);
      drawMarks(t.marks, shot);
    };
    shot.src = fileUrl(t.screenshot);
  }

  const fileUrl = (path) => '/files/' + path.split('/').map(encodeURIComponent).join('/');

  function renderDiff(diff, first) {
    const pre = $('diff');
    pre.replaceChildren();
    if (first) pre.append(el('div', '(first page: every line is new)', 'fold'));
    if (!diff.some((l) => l.op !== '…')) pre.append(el('div', '(no change)', 'fold'));
    for (const line of diff) {
      if (line.op === '…') pre.append(el('div', '… ' + line.count + ' unchanged line' + (line.count === 1 ? '' : 's'), 'fold'));
      else pre.append(el('div', line.op + ' ' + line.text, line.op === '+' ? 'add' : line.op === '-' ? 'del' : ''));
    }
  }

  function renderRollout(r) {
    $('rollout').hidden = !r;
    if (!r) return;
    $('version').textContent =
      r.version === null
        ? 'not versioned (the base model or a scripted policy)'
        : 'v' + r.version + ' · ' + (r.staleness === null
          ? "staleness unknown (the file does not record the trainer's version when it consumed the group)"
          : 'staleness ' + r.staleness + ' (the trainer was at v' + r.trainer_version + ' when it consumed the group)');
    const box = $('tokens');
    box.replaceChildren();
    if (!r.tokens.length) box.append(el('span', '(no tokens: a scripted turn)', 'legend'));
    for (const tok of r.tokens) {
      const span = el('span', tok.text === null ? '#' + tok.id : tok.text, tok.env ? 'tok env' : 'tok');
      if (tok.env) span.title = 'env token ' + tok.id + ' (env mask 0)';
      else {
        const p = Math.exp(tok.logprob);
        span.dataset.logprob = String(tok.logprob);
        span.style.background = 'hsl(' + Math.round(120 * p) + ', 75%, 80%)';
        span.title = 'token ' + tok.id + ' · logprob ' + tok.logprob.toFixed(4) + ' · p ' + p.toFixed(3);
      }
      box.append(span);
    }
  }

  // A MiniWoB task is a small frame in the corner of the page: the picture is shown enlarged
  // (up to 3×) and cut to the part the server names, marks and all, so the task can be read.
  function zoom(focus, shot) {
    const frame = $('frame');
    const page = $('page');
    frame.classList.toggle('zoomed', !!focus);
    if (!focus) {
      frame.style.width = frame.style.aspectRatio = page.style.width = page.style.left = page.style.top = '';
      return;
    }
    const [x, y, w, h] = focus;
    frame.style.width = 'min(60%, ' + 3 * w + 'px, calc(75vh * ' + w / h + '))';
    frame.style.aspectRatio = w + ' / ' + h;
    page.style.width = (100 * shot.naturalWidth) / w + '%';
    page.style.left = (-100 * x) / w + '%';
    page.style.top = (-100 * y) / h + '%';
  }

  function drawMarks(marks, shot) {
    const box = $('marks');
    box.replaceChildren();
    const [w, h] = [shot.naturalWidth, shot.naturalHeight];
    for (const m of marks) {
      const mark = el('div', undefined, 'mark ' + m.kind);
      mark.style.left = (100 * (m.kind === 'box' ? m.bbox[0] : m.x)) / w + '%';
      mark.style.top = (100 * (m.kind === 'box' ? m.bbox[1] : m.y)) / h + '%';
      if (m.kind === 'box') {
        mark.style.width = (100 * m.bbox[2]) / w + '%';
        mark.style.height = (100 * m.bbox[3]) / h + '%';
      }
      const label = el('span', m.kind === 'box' ? m.action + " '" + m.bid + "'" : m.action);
      mark.append(label);
      box.append(mark);
      // The label sits outside the box, above it unless that is off the picture, then below.
      if (label.getBoundingClientRect().top < $('frame').getBoundingClientRect().top) label.className = 'below';
    }
  }

  document.addEventListener('keydown', (event) => {
    const keys = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = keys[event.key];
    if (!move) return;
    event.preventDefault();
    inTurn(() => {
      if (!detail) return;
      if (move[0]) return openEpisode(ep + move[0]);
      const next = step + move[1];
      if (next >= 0 && next < detail.turns.length) {
        step = next;
        renderStep();
      }
    });
  });

  inTurn(start);
})();
</script>
</body>
</html>
`;
