import { idrSlice, LEVEL, pictureParameterSet, sequenceParameterSet, type YuvFrame } from './h264.js';
import { writeMp4 } from './mp4.js';

const WIDTH = 96;
const HEIGHT = 48;
const FPS = 10;
export const CLIP_SECONDS = 3;

/**
 * The `video` challenge's clip, synthesised here: 3 s at 10 fps, a bar that fills left to right
 * with a tick every half second, so each moment looks different. ~170 kB, built once.
 */
export function clockVideo(): Uint8Array {
  const frames = Array.from({ length: CLIP_SECONDS * FPS }, (_, i) => drawFrame(i / (CLIP_SECONDS * FPS)));
  return writeMp4({
    width: WIDTH,
    height: HEIGHT,
    timescale: 1000,
    sampleDuration: 1000 / FPS,
    sps: sequenceParameterSet(WIDTH, HEIGHT),
    pps: pictureParameterSet(),
    profile: 66,
    level: LEVEL,
    samples: frames.map((frame, i) => [idrSlice(frame, WIDTH, HEIGHT, i % 2)]),
  });
}

function drawFrame(progress: number): YuvFrame {
  const y = new Uint8Array(WIDTH * HEIGHT);
  const filled = Math.round(progress * WIDTH);
  for (let row = 0; row < HEIGHT; row++) {
    for (let col = 0; col < WIDTH; col++) {
      const tick = col % (WIDTH / (CLIP_SECONDS * 2)) === 0 && row > HEIGHT - 8;
      y[row * WIDTH + col] = tick ? 16 : col < filled && row > 8 && row < HEIGHT - 10 ? 220 : 60;
    }
  }
  // Blue-ish fill: Cb up, Cr down where the bar is; neutral grey elsewhere.
  const u = new Uint8Array((WIDTH / 2) * (HEIGHT / 2)).map((_, i) => ((i % (WIDTH / 2)) * 2 < filled ? 170 : 128));
  const v = new Uint8Array((WIDTH / 2) * (HEIGHT / 2)).map((_, i) => ((i % (WIDTH / 2)) * 2 < filled ? 100 : 128));
  return { y, u, v };
}
