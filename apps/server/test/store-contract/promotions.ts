import { PROMOTION_STATUSES, promotionStatus } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import type { GameRecord, PromotionFilter, PromotionRecord } from '../../src/store/records.ts';
import type { Repositories } from '../../src/store/store.ts';
import {
  at,
  newId,
  type OpenStore,
  seedClient,
  seedGame,
  seedPlayer,
  seedProfile,
  useStore,
} from './fixtures.ts';

function promotionRecord(game: GameRecord, over: Partial<PromotionRecord> = {}): PromotionRecord {
  return {
    id: newId('promotion'),
    clientId: game.clientId,
    profileId: game.profileId,
    gameId: game.id,
    name: 'Welcome offer',
    cardsPerPlayer: 3,
    startAt: at(0),
    expireAt: at(3600),
    cancelledAt: null,
    createdAt: at(0),
    ...over,
  };
}

async function seedPromotion(repos: Repositories, game: GameRecord, over: Partial<PromotionRecord> = {}) {
  const promotion = promotionRecord(game, over);
  await repos.promotions.insert(promotion);
  return promotion;
}

/** A client with a profile, a game of it and `players` of its players. */
async function seedOffer(repos: Repositories, players = 2) {
  const client = await seedClient(repos);
  const profile = await seedProfile(repos, client.id);
  const game = await seedGame(repos, profile);
  const seated = [];
  for (let i = 0; i < players; i++) seated.push(await seedPlayer(repos, profile));
  return { client, profile, game, players: seated };
}

const filterOf = (clientId: string, over: Partial<PromotionFilter> = {}): PromotionFilter => ({
  clientId,
  profileId: null,
  gameId: null,
  status: null,
  now: at(0),
  ...over,
});

/** PromotionsRepo (docs/promotions.md). */
export function describePromotionsContract(open: OpenStore): void {
  describe('promotions', () => {
    const store = useStore(open);

    it('gives an inserted promotion back with its card’s value and currency, from its game', async () => {
      const { game } = await seedOffer(store(), 0);
      const promotion = await seedPromotion(store(), game);
      expect(await store().promotions.findById(promotion.id)).toEqual({
        ...promotion,
        cardMinor: game.betMinor,
        currency: game.currency,
      });
      expect(await store().promotions.findById('nope')).toBeUndefined();
    });

    it('lists one client’s promotions newest first, paged, by profile and game, with the total', async () => {
      const { client, profile, game } = await seedOffer(store(), 0);
      const otherGame = await seedGame(store(), profile, { gameModel: 'fera-sortuda' });
      const otherProfile = await seedProfile(store(), client.id);
      const elsewhere = await seedGame(store(), otherProfile);
      const first = await seedPromotion(store(), game, { createdAt: at(10) });
      const second = await seedPromotion(store(), otherGame, { createdAt: at(20) });
      const third = await seedPromotion(store(), elsewhere, { createdAt: at(30) });
      const stranger = (await seedOffer(store(), 0)).game;
      await seedPromotion(store(), stranger, { createdAt: at(15) });
      const ids = async (over: Partial<PromotionFilter>, page = { pageIndex: 1, pageSize: 10 }) => {
        const listed = await store().promotions.list(filterOf(client.id, over), page);
        return { ids: listed.items.map((item) => item.id), totalCount: listed.totalCount };
      };

      expect(await ids({})).toEqual({ ids: [third.id, second.id, first.id], totalCount: 3 });
      expect(await ids({}, { pageIndex: 2, pageSize: 2 })).toEqual({ ids: [first.id], totalCount: 3 });
      expect(await ids({ profileId: profile.id })).toEqual({ ids: [second.id, first.id], totalCount: 2 });
      expect(await ids({ gameId: otherGame.id })).toEqual({ ids: [second.id], totalCount: 1 });
      expect(await ids({ profileId: otherProfile.id, gameId: game.id })).toEqual({ ids: [], totalCount: 0 });
    });

    it('filters by status as promotionStatus computes it, at the edges of each window', async () => {
      const { client, game } = await seedOffer(store(), 0);
      const promotions = [
        await seedPromotion(store(), game, { startAt: at(100), expireAt: at(200) }),
        await seedPromotion(store(), game, { startAt: at(0), expireAt: at(100) }),
        await seedPromotion(store(), game, { startAt: at(50), expireAt: at(150), cancelledAt: at(60) }),
        await seedPromotion(store(), game, { startAt: at(-100), expireAt: at(99) }),
      ];
      for (const seconds of [0, 99, 100, 150, 199, 200]) {
        const now = at(seconds);
        for (const status of PROMOTION_STATUSES) {
          const listed = await store().promotions.list(filterOf(client.id, { status, now }), {
            pageIndex: 1,
            pageSize: 10,
          });
          const expected = promotions.filter(
            (p) =>
              promotionStatus(
                {
                  startAt: Date.parse(p.startAt),
                  expireAt: Date.parse(p.expireAt),
                  cancelledAt: p.cancelledAt === null ? null : Date.parse(p.cancelledAt),
                },
                Date.parse(now),
              ) === status,
          );
          expect([seconds, status, listed.items.map((item) => item.id).sort()]).toEqual([
            seconds,
            status,
            expected.map((p) => p.id).sort(),
          ]);
          expect(listed.totalCount).toBe(expected.length);
        }
      }
    });

    it('names the listed ids that are not players of the profile, in the order given', async () => {
      const { client, profile, players } = await seedOffer(store(), 2);
      const sameClient = await seedPlayer(store(), await seedProfile(store(), client.id));
      const [a, b] = players.map((player) => player.id) as [string, string];
      expect(await store().promotions.notPlayersOf(profile.id, [a, b])).toEqual([]);
      expect(
        await store().promotions.notPlayersOf(profile.id, ['ghost', a, sameClient.id, b, 'another']),
      ).toEqual(['ghost', sameClient.id, 'another']);
    });

    it('grants each player of the profile once, in one call, and sums the figures', async () => {
      const { profile, game, players } = await seedOffer(store(), 3);
      const [a, b, c] = players.map((player) => player.id) as [string, string, string];
      const foreign = await seedPlayer(store(), await seedProfile(store(), game.clientId));
      const promotion = await seedPromotion(store(), game, { cardsPerPlayer: 4 });
      const empty = await seedPromotion(store(), game);

      expect(await store().promotions.grant(promotion.id, profile.id, [a, b], 4)).toBe(2);
      // A player already in it keeps what they have; another profile's player is never granted.
      expect(await store().promotions.grant(promotion.id, profile.id, [b, c, foreign.id], 4)).toBe(1);
      const figures = await store().promotions.figuresOf([promotion.id, empty.id]);
      expect(Object.fromEntries(figures)).toEqual({
        [promotion.id]: { players: 3, granted: 12, used: 0, prizesMinor: 0 },
        [empty.id]: { players: 0, granted: 0, used: 0, prizesMinor: 0 },
      });
      expect((await store().promotions.figuresOf([])).size).toBe(0);
    });

    it('cancels once, keeping the first cancellation time', async () => {
      const { game } = await seedOffer(store(), 0);
      const promotion = await seedPromotion(store(), game);
      expect(await store().promotions.cancel(promotion.id, at(60))).toBe(true);
      expect(await store().promotions.cancel(promotion.id, at(90))).toBe(false);
      expect((await store().promotions.findById(promotion.id))?.cancelledAt).toBe(at(60));
      expect(await store().promotions.cancel('nope', at(90))).toBe(false);
    });

    it('gives a player’s grants with their promotions’ game, name and times, the first to expire first', async () => {
      const { profile, game, players } = await seedOffer(store(), 2);
      const [a, b] = players.map((player) => player.id) as [string, string];
      const late = await seedPromotion(store(), game, {
        name: 'Late',
        expireAt: at(7200),
        cardsPerPlayer: 2,
      });
      const soon = await seedPromotion(store(), game, { name: 'Soon', cancelledAt: at(30) });
      await store().promotions.grant(late.id, profile.id, [a, b], 2);
      await store().promotions.grant(soon.id, profile.id, [a], 3);
      const grant = (p: PromotionRecord) => ({
        promotionId: p.id,
        gameId: game.id,
        name: p.name,
        cards: p.cardsPerPlayer,
        used: 0,
        startAt: p.startAt,
        expireAt: p.expireAt,
        cancelledAt: p.cancelledAt,
      });
      expect(await store().promotions.grantsOfPlayer(a)).toEqual([grant(soon), grant(late)]);
      expect(await store().promotions.grantsOfPlayer(b)).toEqual([grant(late)]);
      expect(await store().promotions.grantsOfPlayer('nobody')).toEqual([]);
    });
  });
}
