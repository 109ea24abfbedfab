import { defineChallenge } from '../challenge.js';

interface Params {
  durationMs: number;
  frequency: number;
}

/**
 * Play a short clip to its end. The clip is a WAV tone the page synthesises (8 kHz, 8-bit mono)
 * into a blob URL for a real <audio> element; the code unlocks on its `ended` event.
 */
export const audio = defineChallenge<Params>({
  type: 'audio',
  title: 'Audio clip',
  generate: (rng) => ({ durationMs: rng.round(200, 400, 50), frequency: rng.round(220, 880, 20) }),
  render: (ctx) => {
    const { durationMs, frequency } = ctx.params;
    ctx.instruct(`Press "Play clip" and let the ${durationMs} ms clip play to its end; the code unlocks when it ends.`);
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
    const play = ctx.el('button', { type: 'button' }, 'Play clip');
    play.addEventListener('click', () => {
      if (!clip.paused) return ctx.say('Clip: playing.');
      clip.currentTime = 0;
      ctx.say('Clip: starting.');
      clip.play().then(
        () => ctx.say('Clip: playing.'),
        (error: Error) => ctx.fail(`Clip: playback failed (${error.message}).`),
      );
    });
    clip.addEventListener('ended', () => {
      ctx.say('Clip: finished.');
      ctx.reveal();
    });
    ctx.area.append(play, clip);
    ctx.say('Clip: not played yet.');
  },
});
