/**
 * The least time between buys (GB, RTS 14G), as the page keeps it: after a buy, the page does not
 * send the next one before the gap has passed on its own clock; a buy the server refuses as too
 * soon (`BUY_TOO_SOON`, another tab's buy) waits until its `retryAt`. Both waits are bounded by the
 * gap, so a page clock far from the server's never makes the player wait more than one gap: the
 * server is the judge, and a buy sent too early is refused again and waited out again.
 */

/** How long the page still waits before it may send a buy, after its own last buy at `lastBuyAt`. */
export function waitAfterBuyMs(lastBuyAt: number | null, now: number, gapMs: number): number {
  if (lastBuyAt === null || gapMs <= 0) return 0;
  return clamp(lastBuyAt + gapMs - now, gapMs);
}

/**
 * How long to wait for a refusal's `retryAt` (server time, ISO). `offsetMs` is the server's clock
 * minus the page's as last seen (a bought round's `createdAt` against the page's clock at its
 * answer): the server's "now" is the page's plus that offset.
 */
export function waitForRetryMs(
  retryAt: string | undefined,
  now: number,
  offsetMs: number,
  gapMs: number,
): number {
  const at = retryAt ? Date.parse(retryAt) : Number.NaN;
  // Without a readable time, the whole gap (or a second when the page knows of none): never 0, a retry loop.
  if (Number.isNaN(at)) return gapMs > 0 ? gapMs : 1000;
  return clamp(at - (now + offsetMs), gapMs > 0 ? gapMs : Number.POSITIVE_INFINITY);
}

/** The server's clock minus the page's, from a time the server stamped and the page's clock on its arrival. */
export function clockOffsetMs(serverIso: string, localNow: number): number {
  const at = Date.parse(serverIso);
  return Number.isNaN(at) ? 0 : at - localNow;
}

/** Whole seconds to show on a countdown: 4001 ms is "5", 4000 ms "4", anything left at all at least "1". */
export const secondsLeft = (ms: number): number => (ms <= 0 ? 0 : Math.ceil(ms / 1000));

const clamp = (ms: number, max: number): number => Math.min(Math.max(0, ms), max);
