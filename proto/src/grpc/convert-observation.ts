import { ValidationError } from '../errors.js';
import type { BrowserGymObs, ElementProperties, EncodedScreenshot, ObservationMetadata } from '../wire/observation.js';
import type * as pb from './messages.js';
import { fromStruct, toStruct } from './struct.js';

/** A reply part the server must always send was missing: the reply is malformed, not the request. */
export function required<T>(value: T | null | undefined, path: string): T {
  if (value === null || value === undefined) throw new ValidationError(`Malformed message: ${path} is missing`);
  return value;
}

export function metadataToMessage(metadata: ObservationMetadata): pb.ObservationMetadata {
  const { browsergym_obs, browsergym_info, screenshot_encoded, ...extra } = metadata;
  return {
    browsergym_obs: browserGymObsToMessage(browsergym_obs),
    browsergym_info: toStruct(browsergym_info),
    ...(screenshot_encoded ? { screenshot_encoded: encodedToMessage(screenshot_encoded) } : {}),
    ...(Object.keys(extra).length > 0 ? { extra: toStruct(extra) } : {}),
  };
}

export function metadataFromMessage(message: pb.ObservationMetadataOut, path: string): ObservationMetadata {
  return {
    // Extras first, so they can never shadow the typed parts.
    ...fromStruct(message.extra),
    browsergym_obs: browserGymObsFromMessage(required(message.browsergym_obs, `${path}.browsergym_obs`)),
    browsergym_info: fromStruct(message.browsergym_info),
    ...(message.screenshot_encoded ? { screenshot_encoded: encodedFromMessage(message.screenshot_encoded) } : {}),
  };
}

function browserGymObsToMessage(obs: BrowserGymObs): pb.BrowserGymObs {
  const properties: Record<string, pb.ElementProperties> = {};
  for (const [bid, p] of Object.entries(obs.extra_element_properties)) {
    properties[bid] = {
      visibility: p.visibility,
      bbox: p.bbox ?? [],
      clickable: p.clickable,
      set_of_marks: p.set_of_marks,
    };
  }
  return {
    chat_messages: obs.chat_messages,
    goal: obs.goal,
    goal_object: obs.goal_object,
    open_pages_urls: obs.open_pages_urls,
    open_pages_titles: obs.open_pages_titles,
    active_page_index: obs.active_page_index,
    url: obs.url,
    extra_element_properties: properties,
    focused_element_bid: obs.focused_element_bid,
    last_action: obs.last_action,
    last_action_error: obs.last_action_error,
    elapsed_time: obs.elapsed_time,
  };
}

function browserGymObsFromMessage(obs: pb.BrowserGymObsOut): BrowserGymObs {
  const properties: Record<string, ElementProperties> = {};
  for (const [bid, p] of Object.entries(obs.extra_element_properties)) {
    const [x, y, w, h] = p.bbox;
    const bbox: ElementProperties['bbox'] = p.bbox.length === 4 ? [x!, y!, w!, h!] : null;
    properties[bid] = { visibility: p.visibility, bbox, clickable: p.clickable, set_of_marks: p.set_of_marks };
  }
  return {
    chat_messages: obs.chat_messages.map((m) => ({ role: m.role, timestamp: m.timestamp, message: m.message })),
    goal: obs.goal,
    goal_object: obs.goal_object.map((part) => ({
      type: oneOf(part.type, ['text'] as const, 'goal_object.type'),
      text: part.text,
    })),
    open_pages_urls: obs.open_pages_urls,
    open_pages_titles: obs.open_pages_titles,
    active_page_index: obs.active_page_index,
    url: obs.url,
    extra_element_properties: properties,
    focused_element_bid: obs.focused_element_bid,
    last_action: obs.last_action,
    last_action_error: obs.last_action_error,
    elapsed_time: obs.elapsed_time,
  };
}

function encodedToMessage(shot: EncodedScreenshot): pb.EncodedScreenshot {
  return { format: shot.format, width: shot.width, height: shot.height, data: Buffer.from(shot.base64, 'base64') };
}

function encodedFromMessage(shot: pb.EncodedScreenshotOut): EncodedScreenshot {
  return {
    format: oneOf(shot.format, ['png', 'jpeg'] as const, 'screenshot_encoded.format'),
    width: shot.width,
    height: shot.height,
    base64: shot.data.toString('base64'),
  };
}

/** OpenEnv's int[H][W][3] ⇄ raw row-major RGB bytes (a 1280×720 screenshot: 2.7 MB, not ~12 MB of JSON). */
export function rgbToMessage(pixels: number[][][]): pb.RgbImage {
  const height = pixels.length;
  const width = pixels[0]?.length ?? 0;
  const rgb = Buffer.alloc(width * height * 3);
  let at = 0;
  for (const row of pixels) {
    if (row.length !== width) throw new ValidationError(`screenshot rows must all be ${width} pixels wide`);
    for (const pixel of row) {
      rgb[at++] = pixel[0] ?? 0;
      rgb[at++] = pixel[1] ?? 0;
      rgb[at++] = pixel[2] ?? 0;
    }
  }
  return { width, height, rgb };
}

export function rgbFromMessage(image: pb.RgbImageOut): number[][][] {
  const { width, height, rgb } = image;
  if (rgb.length !== width * height * 3)
    throw new ValidationError(`Malformed message: screenshot has ${rgb.length} bytes, expected ${width}×${height}×3`);
  const rows: number[][][] = new Array(height);
  for (let y = 0, at = 0; y < height; y += 1) {
    const row: number[][] = new Array(width);
    for (let x = 0; x < width; x += 1, at += 3) row[x] = [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!];
    rows[y] = row;
  }
  return rows;
}

function oneOf<const T extends readonly string[]>(value: string, allowed: T, path: string): T[number] {
  if (!allowed.includes(value))
    throw new ValidationError(
      `Malformed message: ${path} is ${JSON.stringify(value)}, expected one of ${allowed.join(', ')}`,
    );
  return value as T[number];
}
