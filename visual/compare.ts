// Two pictures of a page compared: the share of its pixels that changed, and a diff image that shows where. The
// comparison is pixelmatch's perceptual one (a colour distance in OKLab, so a shade the eye cannot tell apart is
// not a change) that leaves out anti-aliasing (pixels on the edge of a glyph or a shape that a renderer smooths a
// little differently from one run to the next). Pictures of different sizes are compared on the larger size, the
// part only one of them covers counting as changed: a page that grew or shrank changed by that much at least.

import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";

/** How two pictures of a page differ. */
export interface Comparison {
  /** The share of changed pixels, in percent of the compared area (0 to 100). */
  changed: number;
  /** Changed pixels. */
  pixels: number;
  /** The compared area: the larger width times the larger height. */
  width: number;
  height: number;
  before: { width: number; height: number };
  after: { width: number; height: number };
  /** The diff as PNG: the after picture faded, changed pixels red (darker in after: blue), anti-aliasing yellow. */
  diff: Buffer;
}

/** pixelmatch's colour threshold per pixel (its OKLab distance, 0 to 1): its default, which tells apart the shades
 * of a theme's palette and leaves out JPEG's and gradients' dithering. */
const COLOR_THRESHOLD = 0.1;
/** What the part of the compared area a picture does not cover is filled with: opaque magenta, which a page's
 * pixels rarely match, so that area counts as changed. */
const OUTSIDE = [255, 0, 255, 255] as const;

/** `png` decoded and placed on a `width` x `height` canvas (the rest filled with OUTSIDE). */
function onCanvas(png: PNG, width: number, height: number): Uint8Array {
  if (png.width === width && png.height === height) return png.data;
  const out = new Uint8Array(width * height * 4);
  for (let i = 0; i < out.length; i += 4) out.set(OUTSIDE, i);
  const row = png.width * 4;
  for (let y = 0; y < png.height; y++) out.set(png.data.subarray(y * row, y * row + row), y * width * 4);
  return out;
}

/** Compares two PNG pictures of a page. Throws when either is not a PNG. */
export function comparePngs(beforePng: Buffer, afterPng: Buffer): Comparison {
  const before = PNG.sync.read(beforePng);
  const after = PNG.sync.read(afterPng);
  const width = Math.max(before.width, after.width);
  const height = Math.max(before.height, after.height);
  const output = new PNG({ width, height });
  const pixels = pixelmatch(onCanvas(before, width, height), onCanvas(after, width, height), output.data, width, height, {
    threshold: COLOR_THRESHOLD,
    includeAA: false,
    alpha: 0.15,
    diffColor: [230, 0, 0],
    diffColorAlt: [0, 90, 230],
  });
  return {
    changed: width * height === 0 ? 0 : (pixels / (width * height)) * 100,
    pixels,
    width,
    height,
    before: { width: before.width, height: before.height },
    after: { width: after.width, height: after.height },
    diff: PNG.sync.write(output),
  };
}
