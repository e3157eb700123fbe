import { z } from 'zod';
import { cardSchema, roundStatusSchema } from './play-protocol.ts';

/**
 * A round as its public replay link shows it (`GET /v1/replay/{token}`, docs/contract.md §11):
 * only what a support link needs and the replay page draws, money in major units as the API sends
 * it. Anyone holding the link reads it without signing in, so it carries nothing about the player
 * (credential, balances), the wallet's answers or the webhook receiver's; those stay in the
 * signed-in `GET /v1/round/{roundId}` (data minimisation, LGPD art. 6 III). The server answers this
 * shape and the replay page checks the answer with it; the panel draws its signed-in round, a
 * superset, with the same renderer.
 */
export const replayRoundSchema = z.object({
  _id: z.string(),
  status: roundStatusSchema,
  currency: z.string(),
  paidPrice: z.number(),
  prize: z.number(),
  createdAt: z.string(),
  endAt: z.string().nullable(),
  gameModel: z.string().nullable(),
  card: cardSchema.nullable(),
  prizeLevels: z.array(z.object({ level: z.number().int(), prize: z.number() })),
});

export type ReplayRound = z.infer<typeof replayRoundSchema>;
