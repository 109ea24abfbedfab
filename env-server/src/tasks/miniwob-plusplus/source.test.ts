import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.js';
import { miniwobSource } from './source.js';

const html = fileURLToPath(new URL('../../../test/fixtures/miniwob-plusplus/', import.meta.url));
const settings = (over: Partial<Parameters<typeof miniwobSource>[0]>) =>
  miniwobSource({ miniwobUrl: undefined, miniwobDir: undefined, miniwobTasks: [], ...over });
const FIXTURE_TASKS = ['book-flight', 'chase-circle', 'click-test', 'delayed-reveal', 'enter-text'];

describe('where real MiniWoB++ comes from', () => {
  it('is off without settings', () => {
    expect(settings({})).toBeUndefined();
  });

  it('a folder of task pages lists its pages and serves its parent on the task origin', () => {
    const source = settings({ miniwobDir: `${html}miniwob` })!;
    expect(source.names).toEqual(FIXTURE_TASKS);
    expect(source.base).toBe('http://tasks.gauntlet.test/miniwob-plusplus/miniwob/');
    expect(source.mount).toEqual({ prefix: '/miniwob-plusplus/', root: html.replace(/\/$/, '') });
  });

  it("MiniWoB++'s html folder itself works too (the Docker image's MINIWOB_DIR), and so does a file:// URL", () => {
    expect(settings({ miniwobDir: html })!.names).toEqual(FIXTURE_TASKS);
    expect(settings({ miniwobUrl: pathToFileURL(`${html}miniwob/`).href })!.base).toMatch(
      /miniwob-plusplus\/miniwob\/$/,
    );
  });

  it("a URL offers MiniWoB++'s 130 tasks (or the ones named), at base + name + .html", () => {
    const all = settings({ miniwobUrl: 'http://127.0.0.1:8080/miniwob' })!;
    expect(all.base).toBe('http://127.0.0.1:8080/miniwob/');
    expect(all.names).toHaveLength(130);
    expect(all.names).toEqual(expect.arrayContaining(['click-test', 'book-flight', 'simon-says']));
    expect(all.mount).toBeUndefined();
    const some = settings({
      miniwobUrl: 'https://example.org/html/miniwob/',
      miniwobTasks: ['click-test', 'my-task'],
    })!;
    expect(some.names).toEqual(['click-test', 'my-task']);
  });

  it('says what is wrong with bad settings', () => {
    expect(() => settings({ miniwobUrl: 'http://x/', miniwobDir: html })).toThrow(/not both/);
    expect(() => settings({ miniwobUrl: 'ftp://x/' })).toThrow(ConfigError);
    expect(() => settings({ miniwobUrl: 'not a url' })).toThrow(/http\(s\) or file URL/);
    expect(() => settings({ miniwobDir: '/no/such/folder' })).toThrow(/is not a folder/);
    expect(() => settings({ miniwobDir: `${html}core` })).toThrow(/No MiniWoB\+\+ task pages/);
    expect(() => settings({ miniwobDir: html, miniwobTasks: ['nope'] })).toThrow(/no page for nope/);
    expect(() => settings({ miniwobUrl: 'http://x/', miniwobTasks: ['../etc'] })).toThrow(/not task names/);
  });
});
