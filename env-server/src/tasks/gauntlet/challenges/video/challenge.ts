import { defineChallenge } from '../../challenge.js';

interface Params {
  mode: 'seek' | 'play';
  /** Seconds (one decimal) into the 3 s clip. */
  target: number;
  tolerance: number;
}

/**
 * A real <video> playing the server's synthesised H.264 clip (media/clock-video.ts), loaded as
 * a blob so it is seekable. Seek mode: land within the tolerance of the target time. Play mode:
 * play continuously from the start past the target time.
 */
export const video = defineChallenge<Params>({
  type: 'video',
  title: 'Video',
  generate: (rng) => ({ mode: rng.pick(['seek', 'play'] as const), target: rng.int(3, 12) / 10, tolerance: 0.15 }),
  render: (ctx) => {
    const { mode, target, tolerance } = ctx.params;
    ctx.instruct(
      mode === 'seek'
        ? `Seek the video to ${target.toFixed(1)} s (within ${tolerance} s): type the time in "Seek to (seconds)" and press "Seek". The code unlocks once the video lands there.`
        : `Press "Play" and let the video play from the start until it passes ${target.toFixed(1)} s. The code unlocks then.`,
    );
    const clip = ctx.el('video', {
      muted: true,
      playsinline: true,
      preload: 'auto',
      width: 192,
      height: 144,
      'aria-label': 'Clip',
    }) as HTMLVideoElement;
    clip.muted = true;
    const time = ctx.el('p', { 'aria-label': 'Video time' }, 'Video: loading.');
    const seekTo = ctx.el('input', {
      type: 'number',
      min: 0,
      max: 3,
      step: 0.1,
      'aria-label': 'Seek to (seconds)',
    }) as HTMLInputElement;
    const button = (label: string, run: () => void) => {
      const b = ctx.el('button', { type: 'button' }, label);
      b.addEventListener('click', () => (clip.readyState < 2 ? ctx.say('Video: still loading.') : run()));
      return b;
    };
    let unlocked = false;
    const unlock = () => {
      if (unlocked) return;
      unlocked = true;
      ctx.reveal();
    };
    const show = () => {
      time.textContent =
        clip.readyState < 2
          ? 'Video: loading.'
          : `Video time: ${clip.currentTime.toFixed(2)} s of ${clip.duration.toFixed(1)} s (${clip.paused ? 'paused' : 'playing'}).`;
      const playedFromStart = [...Array(clip.played.length).keys()].some(
        (i) => clip.played.start(i) <= 0.15 && clip.played.end(i) >= target,
      );
      if (mode === 'play' && playedFromStart) unlock();
    };
    clip.addEventListener('seeked', () => {
      if (mode === 'seek' && Math.abs(clip.currentTime - target) <= tolerance) unlock();
      show();
    });
    for (const event of ['loadeddata', 'play', 'pause', 'ended']) clip.addEventListener(event, show);
    ctx.every(50, () => !clip.paused && show());
    ctx.onCleanup(() => clip.pause());
    fetch(ctx.media.videoUrl)
      .then((response) => response.blob())
      .then(
        (blob) => {
          if (!ctx.live()) return;
          const url = URL.createObjectURL(blob);
          ctx.onCleanup(() => URL.revokeObjectURL(url));
          clip.src = url;
        },
        (error: Error) => ctx.fail(`Video: could not load (${error.message}).`),
      );
    const controls = ctx.el(
      'div',
      {},
      button('Play', () => void clip.play()),
      ' ',
      button('Pause', () => clip.pause()),
      ' ',
      ctx.el('label', {}, 'Seek to (seconds) ', seekTo),
      ' ',
      button('Seek', () => {
        clip.currentTime = Number(seekTo.value);
      }),
    );
    ctx.area.append(clip, time, controls);
  },
});
