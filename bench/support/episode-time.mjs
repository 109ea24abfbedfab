// Where an episode's time goes, from what its trajectory records: every turn's policy_ms (the
// policy call as the episode saw it), step_ms (the env step call as the client saw it) and env_ms
// (the env server's own time in that step), and the episode's wall_ms. What wall_ms holds beyond
// the turns' policy and step calls is the reset, the policy's start/observe and the episode's own
// bookkeeping (`reset_and_rest_ms`).

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
export const round = (x, digits = 1) => (x === null || Number.isNaN(x) ? null : +x.toFixed(digits));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Medians over `trajectories` of each part of an episode's time, in ms. */
export function episodeTimeSplit(trajectories) {
  const parts = trajectories.map((t) => {
    const policy = sum(t.turns.map((turn) => turn.policy_ms));
    const step = sum(t.turns.map((turn) => turn.step_ms));
    return {
      wall: t.wall_ms,
      policy,
      step,
      envServer: sum(t.turns.map((turn) => turn.env_ms)),
      rest: Math.max(0, t.wall_ms - policy - step),
    };
  });
  const m = (key) => round(median(parts.map((p) => p[key])));
  const turns = trajectories.flatMap((t) => t.turns);
  const share = (f) => (turns.length ? round(turns.filter(f).length / turns.length, 3) : null);
  return {
    episodes: trajectories.length,
    turns_p50: median(trajectories.map((t) => t.turns.length)),
    wall_ms: m('wall'),
    policy_ms: m('policy'),
    env_step_ms: m('step'),
    env_server_ms: m('envServer'),
    reset_and_rest_ms: m('rest'),
    // noop() sleeps 1 s on the env server (BrowserGym's default wait): a step's time says little without it.
    noop_turns_share: share((turn) => turn.action.startsWith('noop(')),
    fallback_turns_share: share((turn) => turn.action_fallback),
  };
}

/** Mean ms of wall_ms: with lane time per episode, what a lane spends outside its episodes. */
export const meanWallMs = (trajectories) => sum(trajectories.map((t) => t.wall_ms)) / trajectories.length;
