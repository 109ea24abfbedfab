import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { findChromium, NoChromiumError } from '@gauntlet/proto/chromium';

export { NoChromiumError };

const NO_CHROMIUM_FOR_PNG =
  'no Chromium to render the PNG: install chromium-headless-shell (apt) or set CHROMIUM_PATH; .svg and .html need none';

/**
 * An SVG rendered to PNG at its own width and height by a spawned headless Chromium (the trainer
 * has no browser library; one screenshot needs none).
 */
export async function svgToPng(
  svg: string,
  size: { width: number; height: number },
  chromium: string | null = findChromium({ missing: NO_CHROMIUM_FOR_PNG }).path,
): Promise<Buffer> {
  if (!chromium) throw new NoChromiumError(NO_CHROMIUM_FOR_PNG);
  const dir = await mkdtemp(join(tmpdir(), 'gauntlet-plot-'));
  try {
    const source = join(dir, 'curves.svg');
    const png = join(dir, 'curves.png');
    await writeFile(source, svg);
    await promisify(execFile)(
      chromium,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--hide-scrollbars',
        '--force-device-scale-factor=1',
        `--user-data-dir=${join(dir, 'profile')}`,
        `--window-size=${size.width},${size.height}`,
        `--screenshot=${png}`,
        pathToFileURL(source).href,
      ],
      { timeout: 60_000 },
    );
    return await readFile(png);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
