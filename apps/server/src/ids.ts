import { randomBytes } from 'node:crypto';

/**
 * Opaque ids that sort by creation order (UUIDv7 layout: 48-bit milliseconds, then random bits).
 * Within one millisecond the random tail is incremented, so ids stay strictly increasing and a
 * list ordered by (time, id) is ordered by creation even under a frozen test clock.
 */
export function createIdGenerator(
  clock: () => Date,
  random: (bytes: number) => Buffer = randomBytes,
): () => string {
  let lastMs = -1;
  let tail = 0n; // 74 random bits: 12 in bytes 6–7, 62 in bytes 8–15
  const TAIL_MAX = (1n << 74n) - 1n;
  return () => {
    const ms = Math.max(clock().getTime(), lastMs);
    if (ms === lastMs && tail < TAIL_MAX) {
      tail += 1n;
    } else {
      tail = BigInt(`0x${random(10).toString('hex')}`) >> 6n; // leave room to count up
    }
    lastMs = ms;
    const hex = ms.toString(16).padStart(12, '0');
    const randA = Number(tail >> 62n) & 0xfff;
    const randB = tail & ((1n << 62n) - 1n);
    const variant = (0b10n << 62n) | randB;
    const b = variant.toString(16).padStart(16, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${randA.toString(16).padStart(3, '0')}-${b.slice(0, 4)}-${b.slice(4)}`;
  };
}
