/** Where to find a Chromium binary: one lookup for the env server's browsers and the trainer's PNG plots. */
export {
  DEBIAN_CHROMIUM,
  findChromium,
  NO_CHROMIUM,
  NoChromiumError,
  type ChromiumChoice,
  type ChromiumLookup,
} from './find.js';
