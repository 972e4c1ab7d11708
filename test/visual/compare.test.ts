// visual/compare.ts on pictures drawn here: an identical picture changes 0 %, anti-aliased edges drawn a little
// differently are left out, a block moved by 2 % of the page's height and a page that grew are changes of the
// size they are, and the diff image marks the changed pixels. The verdict and the share's wording (share.ts).
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { comparePngs } from "../../visual/compare.js";
import { formatShare, passes } from "../../src/fleet.js";

type Rgb = [number, number, number];

/** A `width` x `height` picture, white, with `paint` deciding each pixel's colour (undefined: white). */
function picture(width: number, height: number, paint: (x: number, y: number) => Rgb | undefined = () => undefined): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y) ?? [255, 255, 255];
      png.data.set([r, g, b, 255], (y * width + x) * 4);
    }
  return PNG.sync.write(png);
}

/** Lines of "text": dark runs of varying length on every other 6-pixel band, as a page of paragraphs looks. */
const textLines =
  (offset: number) =>
  (x: number, y: number): Rgb | undefined => {
    const line = Math.floor((y - offset) / 6);
    if (y < offset || line % 2 === 1) return undefined;
    return (x * 7 + line * 13) % 23 < 15 ? [30, 30, 30] : undefined;
  };

describe("comparePngs", () => {
  it("finds nothing changed in the same picture, and says so with an empty diff", () => {
    const a = picture(200, 300, textLines(0));
    const c = comparePngs(a, Buffer.from(a));
    expect([c.changed, c.pixels, c.width, c.height]).toEqual([0, 0, 200, 300]);
    const diff = PNG.sync.read(c.diff);
    expect([diff.width, diff.height]).toEqual([200, 300]);
  });

  it("leaves out anti-aliasing: a diagonal edge smoothed with other greys is not a change", () => {
    // A dark triangle whose 120 edge pixels are grey, in two shades as two renderers may smooth it: counted as
    // changes, they would be 120 (pixelmatch with includeAA: 120; they differ beyond its colour threshold).
    const edge =
      (shade: number) =>
      (x: number, y: number): Rgb | undefined =>
        x < y ? [20, 20, 20] : x === y ? [shade, shade, shade] : undefined;
    const c = comparePngs(picture(120, 120, edge(80)), picture(120, 120, edge(180)));
    expect(c.pixels).toBe(0);
  });

  it("counts a block moved down by 2 % of the page's height as the pixels it moved", () => {
    const height = 1000;
    const before = picture(400, height, textLines(200));
    const after = picture(400, height, textLines(220)); // 20 px: 2 % of 1000
    const c = comparePngs(before, after);
    expect(c.changed).toBeGreaterThan(5);
    expect(passes(c.changed, 1)).toBe(false);
  });

  it("compares pictures of different sizes on the larger, the part only one covers counting as changed", () => {
    const c = comparePngs(picture(100, 100), picture(100, 120));
    expect([c.width, c.height, c.before, c.after]).toEqual([100, 120, { width: 100, height: 100 }, { width: 100, height: 120 }]);
    expect(c.pixels).toBe(100 * 20);
    expect(c.changed).toBeCloseTo((2000 / 12000) * 100, 10);
  });

  it("marks changed pixels red in the diff (blue where the after picture is darker), the rest faded", () => {
    const square = (x: number, y: number): Rgb | undefined => (x >= 10 && x < 20 && y >= 10 && y < 20 ? [0, 0, 0] : undefined);
    const c = comparePngs(picture(40, 40), picture(40, 40, square));
    expect(c.pixels).toBe(100);
    const diff = PNG.sync.read(c.diff);
    const at = (x: number, y: number) => Array.from(diff.data.subarray((y * 40 + x) * 4, (y * 40 + x) * 4 + 3));
    expect(at(15, 15)).toEqual([0, 90, 230]); // darker in after
    const light = comparePngs(picture(40, 40, square), picture(40, 40));
    const diff2 = PNG.sync.read(light.diff);
    expect(Array.from(diff2.data.subarray((15 * 40 + 15) * 4, (15 * 40 + 15) * 4 + 3))).toEqual([230, 0, 0]);
    expect(at(2, 2)[0]).toBeGreaterThan(200); // unchanged white, faded
  });

  it("refuses what is not a PNG", () => {
    expect(() => comparePngs(Buffer.from("not a png"), picture(2, 2))).toThrow();
  });
});

describe("the verdict and the share's wording", () => {
  it("passes at the threshold and fails above it", () => {
    expect([passes(0, 1), passes(1, 1), passes(1.0001, 1), passes(0, 0), passes(0.0001, 0)]).toEqual([true, true, false, true, false]);
  });

  it("writes shares as people read them", () => {
    expect([0, 0.0042, 0.35, 2.3704, 12.43, 65.9].map(formatShare)).toEqual(["0 %", "0.004 %", "0.35 %", "2.37 %", "12.4 %", "65.9 %"]);
  });
});
