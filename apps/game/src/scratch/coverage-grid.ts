/**
 * How much of the foil is scratched, kept on a coarse grid updated from the brush stamps
 * themselves: each stamp marks the cells whose centre it covers, and a running count gives the
 * share at once. No pixel is ever read back from the GPU.
 */
export class CoverageGrid {
  private readonly cells: Uint8Array;
  private scratched = 0;
  private readonly cellWidth: number;
  private readonly cellHeight: number;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly cols: number,
    readonly rows: number,
  ) {
    if (cols < 1 || rows < 1 || width <= 0 || height <= 0) throw new RangeError('empty coverage grid');
    this.cells = new Uint8Array(cols * rows);
    this.cellWidth = width / cols;
    this.cellHeight = height / rows;
  }

  /** Share of cells scratched, 0..1. */
  get share(): number {
    return this.scratched / this.cells.length;
  }

  /** Marks the cells whose centres lie within `radius` of (x, y), in the area's coordinates. */
  stamp(x: number, y: number, radius: number): void {
    const r2 = radius * radius;
    const firstCol = Math.max(0, Math.floor((x - radius) / this.cellWidth));
    const lastCol = Math.min(this.cols - 1, Math.floor((x + radius) / this.cellWidth));
    const firstRow = Math.max(0, Math.floor((y - radius) / this.cellHeight));
    const lastRow = Math.min(this.rows - 1, Math.floor((y + radius) / this.cellHeight));
    for (let row = firstRow; row <= lastRow; row++) {
      const dy = (row + 0.5) * this.cellHeight - y;
      for (let col = firstCol; col <= lastCol; col++) {
        const dx = (col + 0.5) * this.cellWidth - x;
        if (dx * dx + dy * dy > r2) continue;
        const index = row * this.cols + col;
        if (this.cells[index] === 0) {
          this.cells[index] = 1;
          this.scratched++;
        }
      }
    }
  }

  /** Marks everything (reveal all). */
  fill(): void {
    this.cells.fill(1);
    this.scratched = this.cells.length;
  }

  reset(): void {
    this.cells.fill(0);
    this.scratched = 0;
  }
}

/**
 * The points along a stroke from (x0, y0) to (x1, y1) where stamps go, `spacing` apart, not
 * including the start (stamped by the previous segment).
 */
export function strokeStamps(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  spacing: number,
): Array<{ x: number; y: number }> {
  const length = Math.hypot(x1 - x0, y1 - y0);
  const steps = Math.max(1, Math.ceil(length / Math.max(spacing, 0.5)));
  const points: Array<{ x: number; y: number }> = [];
  for (let step = 1; step <= steps; step++) {
    const t = step / steps;
    points.push({ x: x0 + (x1 - x0) * t, y: y0 + (y1 - y0) * t });
  }
  return points;
}
