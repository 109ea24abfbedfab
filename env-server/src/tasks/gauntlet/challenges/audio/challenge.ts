import { defineChallenge } from '../../challenge.js';

interface Params {
  durationMs: number;
  frequency: number;
  /** Pause inside [from, from + width] seconds of the clip. */
  from: number;
  width: number;
}

/**
 * Pause a clip inside a stated position range. The clip is a WAV tone the page synthesises (8 kHz, 8-bit mono)
 * into a blob URL for a real <audio> element. The code unlocks on a pause inside a stated range of
 * the clip's position, which the page reports as it plays: the range must be read and the pause
 * timed (from the reported position, or from a press of "Play clip", which starts at 0). The
 * range starts at a random, stated place between 1.5 s and 5.0 s, so pausing at once locks and
 * a fixed wait after Play lands inside it on well under half the seeds.
 */
export const audio = defineChallenge<Params>({
  type: 'audio',
  title: 'Audio clip',
  generate: (rng) => ({
    durationMs: 7000,
    frequency: rng.round(220, 880, 20),
    from: rng.int(15, 50) / 10,
    width: 1.5,
  }),
  render: (ctx) => {
    const { durationMs, frequency, from, width } = ctx.params;
    const until = from + width;
    ctx.instruct(
      `Press "Play clip", then press "Pause" while the clip position reads between ${from.toFixed(1)} s and ${until.toFixed(1)} s. Pausing anywhere else locks the puzzle; "Play clip" always starts from 0.`,
    );
    const rate = 8000;
    const samples = Math.round((rate * durationMs) / 1000);
    const wav = new Uint8Array(44 + samples);
    const view = new DataView(wav.buffer);
    const tag = (at: number, text: string) => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
    tag(0, 'RIFF');
    view.setUint32(4, 36 + samples, true);
    tag(8, 'WAVEfmt ');
    view.setUint32(16, 16, true); // fmt chunk: PCM, mono, rate, byte rate, block align 1, 8 bits
    view.setUint16(20, 1, true);
    view.setUint16(22, 1, true);
    view.setUint32(24, rate, true);
    view.setUint32(28, rate, true);
    view.setUint16(32, 1, true);
    view.setUint16(34, 8, true);
    tag(36, 'data');
    view.setUint32(40, samples, true);
    for (let i = 0; i < samples; i++)
      wav[44 + i] = 128 + Math.round(90 * Math.sin((2 * Math.PI * frequency * i) / rate));
    const url = URL.createObjectURL(new Blob([wav], { type: 'audio/wav' }));
    ctx.onCleanup(() => URL.revokeObjectURL(url));
    const clip = ctx.el('audio', { src: url, preload: 'auto' }) as HTMLAudioElement;
    ctx.onCleanup(() => clip.pause());
    const position = ctx.el('p', { 'aria-label': 'Clip position' });
    const show = () => {
      const text = `Clip position: ${clip.currentTime.toFixed(1)} s (${clip.ended ? 'ended' : clip.paused ? 'paused' : 'playing'}).`;
      if (position.textContent !== text) position.textContent = text;
    };
    const play = ctx.el('button', { type: 'button' }, 'Play clip');
    play.addEventListener('click', () => {
      clip.currentTime = 0;
      ctx.say('Clip: starting.');
      clip.play().then(
        () => ctx.say('Clip: playing.'),
        (error: Error) => ctx.fail(`Clip: playback failed (${error.message}).`),
      );
    });
    const pause = ctx.el('button', { type: 'button' }, 'Pause');
    pause.addEventListener('click', () => {
      if (clip.paused) return ctx.say('Clip: not playing.');
      clip.pause();
      const at = clip.currentTime;
      show();
      if (at >= from && at <= until) {
        ctx.say(`Clip: paused at ${at.toFixed(1)} s.`);
        ctx.reveal();
        return;
      }
      ctx.lock(`Paused at ${at.toFixed(1)} s, outside the range.`, () => {
        clip.currentTime = 0;
        show();
      });
    });
    ctx.every(100, show);
    ctx.area.append(play, ' ', pause, position, clip);
    show();
    ctx.say('Clip: not played yet.');
  },
});
