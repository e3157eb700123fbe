import type { GameRecord, TestCardRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { BuyContext } from './play-runtime.ts';
import { BlockLostError, type TicketReservation } from './pool-drawer.ts';

/**
 * Forced cards on the round's path (docs/certification.md): a buy of a test profile's session takes
 * the next level its queue holds (POST /v1/test/next-cards; the rule of what may be queued is
 * core's forced-cards/); every other buy takes the next ticket of the version's pool. A forced card
 * comes from no pool (its round has no pool and no draw index), so no pool's counts change: a test
 * profile's pools still verify.
 */
export function createTicketSource(
  store: Pick<Store, 'testCards'>,
  drawer: { reserve(game: GameRecord): Promise<TicketReservation> },
) {
  return {
    /** The ticket of one buy, set aside before anything is written. */
    async reserve({ game, session, profile }: Pick<BuyContext, 'game' | 'session' | 'profile'>) {
      // Only a test profile's sessions have a queue: a real buy reads nothing more.
      if (profile.type !== 'test') return drawer.reserve(game);
      const card = await store.testCards.next(session.id);
      return card ? forcedReservation(card) : drawer.reserve(game);
    },
  };
}

/**
 * A forced card: its queue entry is taken in the unit that opens the round (sent ahead like a
 * block's check), so a card is used by one round or, when the unit rolls back, stays queued.
 */
function forcedReservation(card: TestCardRecord): TicketReservation {
  return {
    draw(tx) {
      const held = tx.testCards.take(card.sessionId, card.position).then((taken) => {
        // Another buy of the session (another tab) took it first: the buy reserves again.
        if (!taken)
          throw new BlockLostError(`forced card ${card.position} of session ${card.sessionId} was taken`);
      });
      void held.catch(() => {});
      return { draw: { poolId: null, drawIndex: null, level: card.level }, held };
    },
    // Nothing to give back: an unused card stays in its queue.
    settle() {},
  };
}
