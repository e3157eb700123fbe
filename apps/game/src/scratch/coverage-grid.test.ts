import { describe, expect, it } from 'vitest';
import { CoverageGrid, strokeStamps } from './coverage-grid.ts';

describe('CoverageGrid', () => {
  it('starts clean and counts each cell once, however often it is stamped', () => {
    const grid = new CoverageGrid(100, 100, 10, 10);
    expect(grid.share).toBe(0);
    grid.stamp(5, 5, 4); // the centre of cell (0, 0) only
    expect(grid.share).toBeCloseTo(0.01);
    grid.stamp(5, 5, 4);
    expect(grid.share).toBeCloseTo(0.01);
  });

  it('marks the cells whose centres lie within the radius, clipped at the edges', () => {
    const grid = new CoverageGrid(100, 100, 10, 10);
    grid.stamp(0, 0, 20); // centres (5,5), (15,5), (5,15) are within 20 of the corner; (15,15) is not
    expect(grid.share).toBeCloseTo(0.03);
  });

  it('reaches a full share when every cell is stamped, and fill/reset set it', () => {
    const grid = new CoverageGrid(60, 40, 6, 4);
    for (let y = 5; y < 40; y += 10) for (let x = 5; x < 60; x += 10) grid.stamp(x, y, 1);
    expect(grid.share).toBe(1);
    grid.reset();
    expect(grid.share).toBe(0);
    grid.fill();
    expect(grid.share).toBe(1);
  });

  it('refuses an empty grid', () => {
    expect(() => new CoverageGrid(0, 10, 4, 4)).toThrow(RangeError);
    expect(() => new CoverageGrid(10, 10, 0, 4)).toThrow(RangeError);
  });

  it('passes the threshold after a zig-zag of strokes covering most of the area', () => {
    const grid = new CoverageGrid(520, 568, 24, 24);
    const radius = 34 * (1 - 0.45 / 2);
    for (let y = 20; y < 568 * 0.7; y += 40) {
      for (const point of strokeStamps(0, y, 520, y, 12)) grid.stamp(point.x, point.y, radius);
    }
    expect(grid.share).toBeGreaterThan(0.6);
    expect(grid.share).toBeLessThan(0.8);
  });
});

describe('strokeStamps', () => {
  it('spaces stamps evenly up to the end point, leaving out the start', () => {
    expect(strokeStamps(0, 0, 10, 0, 5)).toEqual([
      { x: 5, y: 0 },
      { x: 10, y: 0 },
    ]);
  });

  it('stamps once for a pointer that did not move', () => {
    expect(strokeStamps(3, 4, 3, 4, 5)).toEqual([{ x: 3, y: 4 }]);
  });
});
