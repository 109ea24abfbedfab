// Original file: env.proto


/**
 * OpenEnv's int[H][W][3] screenshot as raw bytes: row-major, 3 bytes (R, G, B) per pixel.
 */
export interface RgbImage {
  'width'?: (number);
  'height'?: (number);
  'rgb'?: (Buffer | Uint8Array | string);
}

/**
 * OpenEnv's int[H][W][3] screenshot as raw bytes: row-major, 3 bytes (R, G, B) per pixel.
 */
export interface RgbImage__Output {
  'width': (number);
  'height': (number);
  'rgb': (Buffer);
}
