import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElementProperties, StepResult } from '@gauntlet/proto';
import { actionMarks } from './action-marks.js';
import type { EpisodeRecord, PageFiles } from './episode-record.js';

/**
 * Keeps the page of every env reply of one episode as it arrives (the reset's is turn 0's, step
 * k's is turn k+1's; the last one, after the final action, is the episode's `final`): the PNG
 * screenshot and the AXTree text go to side files at once, so a long episode does not pile up
 * images in memory; only the element boxes stay until the actions are known.
 */
export class TurnCapture {
  private pages = 0;
  private readonly boxes: Record<string, ElementProperties>[] = [];
  private readonly files: PageFiles[] = [];

  constructor(
    private readonly runDir: string,
    readonly episodeIndex: number,
  ) {}

  /** Pass as runEpisode's onResult. */
  readonly onResult = (result: StepResult): void => {
    const page = this.pages++;
    const shot = result.metadata.screenshot_encoded ?? result.observation.metadata.screenshot_encoded;
    const entry: PageFiles = { axtree: this.write('observations', page, 'txt', result.observation.axtree_txt) };
    if (shot)
      entry.screenshot = this.write(
        'screenshots',
        page,
        shot.format === 'jpeg' ? 'jpg' : 'png',
        Buffer.from(shot.base64, 'base64'),
      );
    this.files.push(entry);
    this.boxes.push(result.metadata.browsergym_obs?.extra_element_properties ?? {});
  };

  /** The record with each turn's files and marks, and the final page's files. */
  annotate(record: EpisodeRecord): EpisodeRecord {
    const turns = record.turns.map((turn) => {
      const files = this.files[turn.index];
      if (!files) return turn;
      return { ...turn, ...files, marks: actionMarks(turn.action, this.boxes[turn.index] ?? {}) };
    });
    const last = this.files[record.turns.length];
    return { ...record, turns, ...(last ? { final: { ...last } } : {}) };
  }

  private write(kind: string, page: number, ext: string, data: string | Buffer): string {
    const dir = join(kind, String(this.episodeIndex));
    mkdirSync(join(this.runDir, dir), { recursive: true });
    const path = join(dir, `${page}.${ext}`);
    writeFileSync(join(this.runDir, path), data);
    return path.split('\\').join('/');
  }
}
