import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { TestCardRecord } from '../records.ts';
import type { TestCardsRepo } from '../repositories.ts';

const lastPosition = statement<{ sessionId: string }, { position: number | null }>(
  'SELECT max(position) AS position FROM test_cards WHERE session_id = :sessionId',
);
const insertCard = statement<TestCardRecord & { createdAt: string }>(
  `INSERT INTO test_cards (session_id, position, level, created_at)
   VALUES (:sessionId, :position, :level, :createdAt)`,
);
const countCards = statement<{ sessionId: string }, { n: number }>(
  'SELECT count(*) AS n FROM test_cards WHERE session_id = :sessionId',
);
const nextCard = statement<{ sessionId: string }, TestCardRecord>(
  `SELECT session_id AS "sessionId", position, level FROM test_cards WHERE session_id = :sessionId
   ORDER BY position LIMIT 1`,
);
const takeCard = statement<{ sessionId: string; position: number }>(
  'DELETE FROM test_cards WHERE session_id = :sessionId AND position = :position',
);

/** The queues of forced cards of test sessions: written by POST /v1/test/next-cards, taken by buys. */
export function createTestCardsRepo(x: Exec): TestCardsRepo {
  return {
    async queue(sessionId, levels, createdAt) {
      const last = (await x.first(lastPosition, { sessionId }))?.position ?? 0;
      for (const [index, level] of levels.entries()) {
        await x.run(insertCard, { sessionId, position: Number(last) + index + 1, level, createdAt });
      }
      return Number((await x.first(countCards, { sessionId }))?.n ?? 0);
    },
    next: async (sessionId) => x.first(nextCard, { sessionId }),
    take: async (sessionId, position) => (await x.run(takeCard, { sessionId, position })) === 1,
  };
}
