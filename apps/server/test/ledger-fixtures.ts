import { buildLadder, toMajor } from '@raspa/core';
import { PROFILE_PROTECTION_DEFAULTS } from '../src/store/records.ts';
import type { TestServer, TokenSet } from './harness.ts';

/**
 * Test data for the round and transaction lists, written through the server's own store (either
 * adapter) as records, without the play loop: each write is committed at once, so the running
 * server sees it.
 *
 * Amounts are minor units, as stored: a bet is a negative transaction, a prize positive.
 */

/** One player at one profile's table: what a round needs to be written. */
export interface Seat {
  clientId: string;
  profileId: string;
  gameId: string;
  playerId: string;
  sessionId: string;
  currency: string;
  betMinor: number;
}

export interface RoundOptions {
  /** When the card was bought (the round and its bet). */
  at: string;
  /** 0: a losing card. */
  prizeMinor?: number;
  /**
   * open: bought, not yet revealed; voided: the bet had no answer and was rolled back; declined:
   * the wallet refused the bet (nothing moved).
   */
  outcome?: 'closed' | 'open' | 'voided' | 'declined';
  /** Milliseconds from buying to closing (prize or rollback); default 2 s. */
  closeAfterMs?: number;
  /**
   * A free card of this promotion (`promotion`): no bet, paid 0, its prize paid with no bet before
   * it (docs/promotions.md). Only `closed` and `open`: a free round has no bet to decline or void.
   */
  promotionId?: string;
}

export interface WrittenRound {
  roundId: string;
  /** Null for a free card's round: it has no bet. */
  betId: string | null;
  /** The prize or rollback transaction, when there is one. */
  settleId: string | null;
  createdAt: string;
  endAt: string | null;
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

export function ledgerFixtures(server: TestServer) {
  const store = server.deps.store;
  const newId = () => server.deps.newId();
  const now = () => server.clock().toISOString();

  /** A profile in `currency` with an active game and one player (with a session) sitting at it. */
  async function seat(
    clientId: string,
    options: { currency?: string; betMinor?: number; credential?: string; balanceMinor?: number } = {},
  ): Promise<Seat> {
    const currency = options.currency ?? 'BRL';
    const betMinor = options.betMinor ?? 500;
    const ladder = buildLadder({
      gameModel: 'oxe-ganhei',
      currency,
      rtp: 0.8,
      sampling: 200_000,
      prizedPercent: 0.25,
      betPrice: toMajor(betMinor, currency),
    });
    if (!ladder.ok) throw new Error(`fixture ladder: ${JSON.stringify(ladder)}`);
    const profileId = newId();
    const gameId = newId();
    await store.profiles.insert({
      id: profileId,
      clientId,
      name: `Casa ${currency}`,
      type: 'operator',
      currency,
      currencies: null,
      walletUrl: 'https://wallet.example/raspa',
      walletTokenSealed: null,
      allowedOrigins: [],
      ...PROFILE_PROTECTION_DEFAULTS,
      createdAt: now(),
      updatedAt: now(),
    });
    await store.games.insert({
      id: gameId,
      clientId,
      profileId,
      gameModel: 'oxe-ganhei',
      version: 1,
      active: true,
      lang: 'pt',
      currency,
      rtpPpm: 800_000,
      sampling: 200_000,
      prizedPpm: 250_000,
      betMinor,
      ladder: ladder.ladder,
      createdAt: now(),
    });
    return addPlayer(
      { clientId, profileId, gameId, playerId: '', sessionId: '', currency, betMinor },
      options.credential ?? `player-${profileId.slice(-6)}@example.test`,
      options.balanceMinor,
    );
  }

  /** Another player at the same profile and game. */
  async function addPlayer(at: Seat, credential: string, balanceMinor = 100 * at.betMinor): Promise<Seat> {
    const playerId = newId();
    const sessionId = newId();
    await store.players.insert({
      id: playerId,
      clientId: at.clientId,
      profileId: at.profileId,
      credential,
      credentialType: 'email',
      balanceMinor,
      betWins: 0,
      totalBets: 0,
      createdAt: now(),
    });
    await store.sessions.insert({
      id: sessionId,
      clientId: at.clientId,
      profileId: at.profileId,
      playerId,
      gameId: at.gameId,
      tokenHash: `hash-${sessionId}`,
      lang: 'pt',
      returnUrl: null,
      expireAt: later(now(), 7_200_000),
      createdAt: now(),
      realityCheckAckedAt: null,
      endedAt: null,
      endCode: null,
    });
    return { ...at, playerId, sessionId };
  }

  /** A round as the play loop writes it: the round, its bet and its prize (or rollback), the player's figures. */
  function round(at: Seat, options: RoundOptions): Promise<WrittenRound> {
    const outcome = options.outcome ?? 'closed';
    const prizeMinor = outcome === 'closed' ? (options.prizeMinor ?? 0) : 0;
    const endAt = outcome === 'open' ? null : later(options.at, options.closeAfterMs ?? 2000);
    const roundId = newId();
    const betId = newId();
    const declined = outcome === 'declined';
    const promotionId = options.promotionId ?? null;
    if (promotionId !== null && outcome !== 'closed' && outcome !== 'open')
      throw new Error(`a free round is closed or open, not ${outcome}`);
    const paidMinor = promotionId === null ? at.betMinor : 0;
    const transaction = (
      id: string,
      type: 'bet' | 'prize' | 'rollback',
      amountMinor: number,
      before: number,
    ) => ({
      id,
      roundId,
      clientId: at.clientId,
      profileId: at.profileId,
      playerId: at.playerId,
      type,
      amountMinor,
      currency: at.currency,
      balanceBeforeMinor: declined ? null : before,
      balanceAfterMinor: declined ? null : before + amountMinor,
      status: declined ? ('declined' as const) : ('completed' as const),
      createdAt: type === 'bet' ? options.at : (endAt ?? options.at),
      originalTransactionId: null,
      attempts: 0,
      nextAttemptAt: null,
      lastError: null,
      completedAt: null,
    });
    return store.transaction(async (tx) => {
      const start = (await tx.players.findById(at.playerId))?.balanceMinor ?? 0;
      await tx.rounds.insertRound({
        id: roundId,
        clientId: at.clientId,
        profileId: at.profileId,
        gameId: at.gameId,
        playerId: at.playerId,
        sessionId: at.sessionId,
        status: outcome,
        currency: at.currency,
        paidMinor,
        prizeMinor,
        createdAt: options.at,
        endAt,
        poolId: null,
        drawIndex: null,
        level: null,
        cardJson: null,
        // No last action: the idle-round timer never closes a fixture's open round.
        lastActionAt: null as unknown as string,
        reconciliation: false,
        prizeTransactionId: null,
        promotionId,
        test: false,
      });
      const afterBet = declined ? start : start - paidMinor;
      if (promotionId === null)
        await tx.rounds.insertTransaction(transaction(betId, 'bet', -at.betMinor, start));
      let settleId: string | null = null;
      let end = afterBet;
      if (endAt !== null && (outcome === 'voided' || prizeMinor > 0)) {
        settleId = newId();
        const amount = outcome === 'voided' ? at.betMinor : prizeMinor;
        end = afterBet + amount;
        await tx.rounds.insertTransaction(
          transaction(settleId, outcome === 'voided' ? 'rollback' : 'prize', amount, afterBet),
        );
      }
      await tx.rounds.updatePlayer(at.playerId, at.currency, end, declined ? 0 : 1, prizeMinor > 0 ? 1 : 0);
      return { roundId, betId: promotionId === null ? betId : null, settleId, createdAt: options.at, endAt };
    });
  }

  /** A promotion of the seat's game (its free rounds are written by `round` with its id); no grants. */
  async function promotion(at: Seat): Promise<string> {
    const id = newId();
    await store.promotions.insert({
      id,
      clientId: at.clientId,
      profileId: at.profileId,
      gameId: at.gameId,
      name: 'Welcome',
      cardsPerPlayer: 10,
      startAt: '2026-01-01T00:00:00.000Z',
      expireAt: '2026-12-31T00:00:00.000Z',
      cancelledAt: null,
      createdAt: now(),
    });
    return id;
  }

  return { seat, addPlayer, round, promotion };
}

export type LedgerFixtures = ReturnType<typeof ledgerFixtures>;

/** Every item of a paged list (`path` has a query string already), all pages read. */
export async function listAllPages(server: TestServer, tokens: TokenSet, path: string): Promise<any[]> {
  const items: any[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const answer = await server.call('GET', `${path}&pageSize=100&pageIndex=${pageIndex}`, { token: tokens });
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    items.push(...answer.body.data);
    if (items.length >= answer.body.pagination.totalCount) return items;
  }
}
