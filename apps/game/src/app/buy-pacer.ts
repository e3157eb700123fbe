import { clockOffsetMs, secondsLeft, waitAfterBuyMs, waitForRetryMs } from '../rules/buy-pace.ts';

/** How often the countdown is redrawn; the time left is always read from the clock. */
const TICK_MS = 250;

/**
 * Keeps the jurisdiction's least time between buys on the page (GB: 5 s, rules/buy-pace.ts): after
 * each buy, and after a buy refused as too soon until its `retryAt`, the buy button counts down
 * (`show(seconds)`) and comes back (`show(null)`) when the time is up. Never a silent refusal.
 */
export class BuyPacer {
  private gapMs = 0;
  private lastBuyAt: number | null = null;
  private offsetMs = 0;
  /** Until when the page waits (its own clock), or null. */
  private until: number | null = null;
  private ticker: number | undefined;

  constructor(
    private readonly show: (seconds: number | null) => void,
    private readonly now: () => number = Date.now,
  ) {}

  setGap(gapMs: number): void {
    this.gapMs = gapMs;
  }

  /** A buy answered: the gap starts; the round's `createdAt` tells the server's clock. */
  bought(createdAt: string): void {
    const now = this.now();
    this.offsetMs = clockOffsetMs(createdAt, now);
    this.lastBuyAt = now;
    this.waitFor(waitAfterBuyMs(now, now, this.gapMs));
  }

  /** A buy refused as too soon (another tab bought, or the clocks disagree): wait until `retryAt`. */
  refused(retryAt: string | undefined): number {
    const wait = waitForRetryMs(retryAt, this.now(), this.offsetMs, this.gapMs);
    this.waitFor(wait);
    return wait;
  }

  /** Milliseconds before a buy may be sent (0: now). */
  remaining(): number {
    if (this.until === null) return 0;
    const own = waitAfterBuyMs(this.lastBuyAt, this.now(), this.gapMs);
    return Math.max(own, this.until - this.now(), 0);
  }

  stop(): void {
    window.clearInterval(this.ticker);
    this.until = null;
  }

  private waitFor(ms: number): void {
    if (ms <= 0) return;
    this.until = Math.max(this.until ?? 0, this.now() + ms);
    window.clearInterval(this.ticker);
    this.ticker = window.setInterval(() => this.tick(), TICK_MS);
    this.tick();
  }

  private tick(): void {
    const left = this.remaining();
    if (left > 0) {
      this.show(secondsLeft(left));
      return;
    }
    window.clearInterval(this.ticker);
    this.until = null;
    this.show(null);
  }
}
