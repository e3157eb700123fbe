/** The spec's Limits, plus the bounds the spec leaves "not shown" (our decisions, in docs/contract.md). */
export const LADDER_LIMITS = {
  rtp: { min: 0.5, max: 0.95 },
  /** Spec: "above 100000". Upper bound: ours, so a whole pool stays verifiable in seconds. */
  sampling: { min: 100_001, max: 100_000_000 },
  prizedPercent: { min: 0.2, max: 1 },
  /** rtp and prizedPercent are read exactly, to the millionth. */
  ratioDecimals: 6,
  /** Ours: a ticket price above 100,000 major units is not a scratch card. */
  betPrice: { maxMajor: 100_000 },
} as const;
