/**
 * A model's foil: a metallic gradient, a pattern in the model's spirit, and "scratch here" across it.
 * Painted with the 2D canvas API on the foil's own canvas (see ScratchFoil for why).
 */
export interface FoilSpec {
  /** Diagonal gradient stops, offset 0..1 and CSS colour. */
  stops: ReadonlyArray<readonly [number, string]>;
  /** Colour and outline of the "scratch here" text. */
  ink: string;
  inkStroke: string;
  /** Draws the model's pattern over the gradient, in foil units (width × height). */
  pattern?: (context: CanvasRenderingContext2D, width: number, height: number) => void;
}

export function paintFoil(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
  spec: FoilSpec,
  scratchHere: string,
): void {
  context.save();
  context.globalCompositeOperation = 'source-over';
  context.clearRect(0, 0, width, height);
  roundedRect(context, 0, 0, width, height, 18);
  context.clip();
  const gradient = context.createLinearGradient(0, 0, width, height);
  for (const [offset, color] of spec.stops) gradient.addColorStop(offset, color);
  context.fillStyle = gradient;
  context.fillRect(0, 0, width, height);
  spec.pattern?.(context, width, height);
  // Sheen bands, as on real foil.
  context.fillStyle = 'rgba(255, 255, 255, 0.16)';
  polygon(context, [width * 0.15, 0, width * 0.35, 0, width * 0.05, height, -width * 0.15, height]);
  context.fillStyle = 'rgba(255, 255, 255, 0.12)';
  polygon(context, [width * 0.62, 0, width * 0.7, 0, width * 0.4, height, width * 0.32, height]);
  // "Scratch here", as large as fits.
  let size = 54;
  context.font = `800 ${size}px system-ui, "Segoe UI", Roboto, Arial, sans-serif`;
  const measured = context.measureText(scratchHere).width + scratchHere.length * 4;
  if (measured > width * 0.86) size = Math.floor((size * width * 0.86) / measured);
  context.font = `800 ${size}px system-ui, "Segoe UI", Roboto, Arial, sans-serif`;
  context.letterSpacing = '4px';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.lineJoin = 'round';
  context.lineWidth = 6;
  context.strokeStyle = spec.inkStroke;
  context.strokeText(scratchHere, width / 2, height / 2);
  context.fillStyle = spec.ink;
  context.fillText(scratchHere, width / 2, height / 2);
  context.restore();
}

export function roundedRect(
  context: CanvasRenderingContext2D,
  x: number,
  y: number,
  width: number,
  height: number,
  radius: number,
): void {
  context.beginPath();
  context.roundRect(x, y, width, height, radius);
}

/** Fills a closed polygon given as x, y pairs with the current fill style. */
export function polygon(context: CanvasRenderingContext2D, points: readonly number[]): void {
  context.beginPath();
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i] ?? 0;
    const y = points[i + 1] ?? 0;
    if (i === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  }
  context.closePath();
  context.fill();
}

/** The same scatter as the card art's (a fixed seed, so a foil looks the same every time). */
export function scatterPoints(
  count: number,
  width: number,
  height: number,
  seed: number,
): Array<[number, number]> {
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
  return Array.from({ length: count }, () => [random() * width, random() * height]);
}

/** Fills a star of `points` points centred at (x, y) with the current fill style. */
export function star(
  context: CanvasRenderingContext2D,
  x: number,
  y: number,
  points: number,
  outer: number,
  inner: number,
): void {
  const corners: number[] = [];
  for (let i = 0; i < points * 2; i++) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = (i / (points * 2)) * Math.PI * 2 - Math.PI / 2;
    corners.push(x + Math.cos(angle) * radius, y + Math.sin(angle) * radius);
  }
  polygon(context, corners);
}
