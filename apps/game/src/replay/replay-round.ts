import { cardSchema } from '@raspa/core';
import { z } from 'zod';

/**
 * What drawing a played round needs, as `GET /v1/round/{roundId}` and `GET /v1/replay/{token}`
 * answer it (money in major units, as the API sends it). The replay page checks the answer with it;
 * the panel, whose types come from the service's own schemas, passes its round as it is. Apart from
 * round-card.ts, so that a page drawing a round does not have to ship zod.
 */
export const replayRoundSchema = z.object({
  _id: z.string(),
  currency: z.string(),
  status: z.string(),
  prize: z.number(),
  paidPrice: z.number(),
  createdAt: z.string(),
  endAt: z.string().nullable(),
  card: cardSchema.nullable(),
  prizeLevels: z.array(z.object({ level: z.number().int(), prize: z.number() })),
});

export type ReplayRound = z.infer<typeof replayRoundSchema>;
