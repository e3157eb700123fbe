import { join } from 'node:path';
import { buildLadder, toMajor } from '@raspa/core';
import Database from 'better-sqlite3';
import type { TestServer, TokenSet } from './harness.ts';

/**
 * Test data for the round and transaction lists, written straight into the server's SQLite
 * file with SQL (the play loop that writes rounds for real comes later). A second connection to
 * the same WAL database: every insert is committed at once, so the running server sees it.
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
  /** open: bought, not yet revealed; voided: the bet had no answer and was rolled back. */
  outcome?: 'closed' | 'open' | 'voided';
  /** Milliseconds from buying to closing (prize or rollback); default 2 s. */
  closeAfterMs?: number;
}

export interface WrittenRound {
  roundId: string;
  betId: string;
  /** The prize or rollback transaction, when there is one. */
  settleId: string | null;
  createdAt: string;
  endAt: string | null;
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

export function ledgerFixtures(server: TestServer) {
  const db = new Database(join(server.dataDir, 'raspa.sqlite'));
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const newId = () => server.deps.newId();
  const now = () => server.clock().toISOString();

  const insertProfile = db.prepare(`INSERT INTO profiles (id, client_id, name, type, currency, wallet_url,
    wallet_token_enc, allowed_origins, created_at, updated_at)
    VALUES (?, ?, ?, 'operator', ?, 'https://wallet.example/raspa', NULL, '[]', ?, ?)`);
  const insertGame =
    db.prepare(`INSERT INTO games (id, client_id, profile_id, game_model, version, active, lang,
    currency, rtp_ppm, sampling, prized_ppm, bet_minor, ladder_json, created_at)
    VALUES (?, ?, ?, 'oxe-ganhei', 1, 1, 'pt', ?, 800000, 200000, 250000, ?, ?, ?)`);
  const insertPlayer =
    db.prepare(`INSERT INTO players (id, client_id, profile_id, credential, credential_type,
    balance_minor, bet_wins, total_bets, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?)`);
  const insertSession = db.prepare(`INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id,
    token_hash, lang, return_url, expire_at, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pt', NULL, ?, ?)`);
  const insertRound =
    db.prepare(`INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id,
    status, currency, paid_minor, prize_minor, created_at, end_at)
    VALUES (@id, @clientId, @profileId, @gameId, @playerId, @sessionId, @status, @currency, @paidMinor,
    @prizeMinor, @createdAt, @endAt)`);
  const insertTransaction =
    db.prepare(`INSERT INTO transactions (id, round_id, client_id, profile_id, player_id,
    type, amount_minor, currency, balance_before_minor, balance_after_minor, status, created_at)
    VALUES (@id, @roundId, @clientId, @profileId, @playerId, @type, @amountMinor, @currency, @before, @after,
    'completed', @createdAt)`);
  const playerBalance = db.prepare<[string], { balance: number }>(
    'SELECT balance_minor AS balance FROM players WHERE id = ?',
  );
  const updatePlayer = db.prepare<[number, number, string]>(
    'UPDATE players SET balance_minor = ?, total_bets = total_bets + 1, bet_wins = bet_wins + ? WHERE id = ?',
  );

  /** A profile in `currency` with an active game and one player (with a session) sitting at it. */
  function seat(
    clientId: string,
    options: { currency?: string; betMinor?: number; credential?: string; balanceMinor?: number } = {},
  ): Seat {
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
    insertProfile.run(profileId, clientId, `Casa ${currency}`, currency, now(), now());
    insertGame.run(gameId, clientId, profileId, currency, betMinor, JSON.stringify(ladder.ladder), now());
    return addPlayer(
      { clientId, profileId, gameId, playerId: '', sessionId: '', currency, betMinor },
      options.credential ?? `player-${profileId.slice(-6)}@example.test`,
      options.balanceMinor,
    );
  }

  /** Another player at the same profile and game. */
  function addPlayer(at: Seat, credential: string, balanceMinor = 100 * at.betMinor): Seat {
    const playerId = newId();
    const sessionId = newId();
    insertPlayer.run(playerId, at.clientId, at.profileId, credential, 'email', balanceMinor, now());
    insertSession.run(
      sessionId,
      at.clientId,
      at.profileId,
      playerId,
      at.gameId,
      `hash-${sessionId}`,
      later(now(), 7_200_000),
      now(),
    );
    return { ...at, playerId, sessionId };
  }

  /** A round as the play loop writes it: the round, its bet and its prize (or rollback), the player's figures. */
  function round(at: Seat, options: RoundOptions): WrittenRound {
    const outcome = options.outcome ?? 'closed';
    const prizeMinor = outcome === 'closed' ? (options.prizeMinor ?? 0) : 0;
    const endAt = outcome === 'open' ? null : later(options.at, options.closeAfterMs ?? 2000);
    const roundId = newId();
    const betId = newId();
    const common = {
      roundId,
      clientId: at.clientId,
      profileId: at.profileId,
      playerId: at.playerId,
      currency: at.currency,
    };
    return db.transaction(() => {
      const start = playerBalance.get(at.playerId)?.balance ?? 0;
      insertRound.run({
        id: roundId,
        ...common,
        gameId: at.gameId,
        sessionId: at.sessionId,
        status: outcome,
        paidMinor: at.betMinor,
        prizeMinor,
        createdAt: options.at,
        endAt,
      });
      const afterBet = start - at.betMinor;
      insertTransaction.run({
        id: betId,
        ...common,
        type: 'bet',
        amountMinor: -at.betMinor,
        before: start,
        after: afterBet,
        createdAt: options.at,
      });
      let settleId: string | null = null;
      let end = afterBet;
      if (endAt !== null && (outcome === 'voided' || prizeMinor > 0)) {
        settleId = newId();
        const amount = outcome === 'voided' ? at.betMinor : prizeMinor;
        end = afterBet + amount;
        insertTransaction.run({
          id: settleId,
          ...common,
          type: outcome === 'voided' ? 'rollback' : 'prize',
          amountMinor: amount,
          before: afterBet,
          after: end,
          createdAt: endAt,
        });
      }
      updatePlayer.run(end, prizeMinor > 0 ? 1 : 0, at.playerId);
      return { roundId, betId, settleId, createdAt: options.at, endAt };
    })();
  }

  return { seat, addPlayer, round, close: () => db.close() };
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
