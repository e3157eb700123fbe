import { z } from 'zod';

/**
 * The player-protection shapes the page and the server share over the socket (CONTRACT §13); money in
 * minor units, as everywhere in the play protocol. The API's shapes (limits, usage, exclusion, the
 * profile's fields) are the server's: apps/server/src/schemas/protection.ts.
 */

/** The figures of a reality check, sent with the play error REALITY_CHECK (minor units, as on the socket). */
export const realityCheckSchema = z.object({
  elapsedMinutes: z.number().int().min(0),
  wagered: z.number().int(),
  won: z.number().int(),
  net: z.number().int(),
});

/** The page and play rules in force (playRulesOf, jurisdictions.ts), sent to the page in the play state. */
export const playRulesSchema = z.object({
  /** The least time between one buy and the next, in ms (0: none). */
  minMsBetweenBuys: z.number().int().min(0),
  /** Whether the page offers "Reveal all" (a feature that shortens the time to the result). */
  revealAll: z.boolean(),
  /** The session's elapsed time always on screen. */
  showElapsedTime: z.boolean(),
  /** The session's net position (won − wagered) always on screen. */
  showNetPosition: z.boolean(),
  /** The game's return to player on screen. */
  showRtp: z.boolean(),
  /** The minimum age shown on screen ("18+"), or null. */
  ageNotice: z.number().int().nullable(),
  /** The profile's responsible-gaming link on screen. */
  showResponsibleGamingLink: z.boolean(),
  /** The reality-check interval when neither the player nor the profile sets one (minutes, or null). */
  defaultRealityCheckMinutes: z.number().int().nullable(),
  /** Whether the operator may grant free cards (promotions, CONTRACT §14) to the profile's players. */
  freeCards: z.boolean(),
});

export type PlayRules = z.infer<typeof playRulesSchema>;

export type RealityCheck = z.infer<typeof realityCheckSchema>;
