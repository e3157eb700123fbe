/**
 * What drawing a played round needs: the public replay data's shape (`GET /v1/replay/{token}`),
 * which lives in @raspa/core beside the other wire shapes, so the server answers exactly what this
 * page checks. The panel, whose types come from the service's own schemas, passes its signed-in
 * round (a superset) as it is. Apart from round-card.ts, so that a page drawing a round does not
 * have to ship zod.
 */
export { type ReplayRound, replayRoundSchema } from '@raspa/core';
