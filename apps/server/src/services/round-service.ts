import { isoIn, isoNow } from '../clock.ts';
import { SETTING_DEFAULTS } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { PageRequest } from '../store/paging.ts';
import type {
  DeliveryRecord,
  GameRecord,
  PoolRecord,
  Resolution,
  RoundDetail,
  RoundRecord,
  RoundResolutionRecord,
  WalletAttemptRecord,
} from '../store/records.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { owned } from './ownership.ts';

/** Everything the back office shows of one round (docs/contract.md §11). */
export interface RoundDossier {
  round: RoundRecord;
  detail: RoundDetail;
  game: GameRecord | undefined;
  pool: PoolRecord | undefined;
  walletAttempts: WalletAttemptRecord[];
  deliveries: DeliveryRecord[];
  resolution: RoundResolutionRecord | undefined;
}

/** What a replay token holds, sealed (AES-GCM under the server key): no table, any instance reads it. */
interface ReplayClaim {
  roundId: string;
  expireAt: string;
}

/**
 * The back office's round operations: one round with everything behind it, the rounds flagged
 * for reconciliation and their resolution, and read-only replay links for customer support.
 */
export function createRoundService(deps: Deps) {
  const { store } = deps;

  async function ownedRound(auth: AuthContext, roundId: string): Promise<RoundRecord> {
    return owned(await store.rounds.findRound(roundId), auth.clientId, `round ${roundId}`);
  }

  /** The round behind a live replay token; undefined when it is unknown, tampered with or expired. */
  async function replayedRound(token: string): Promise<RoundRecord | undefined> {
    let claim: ReplayClaim;
    try {
      claim = JSON.parse(deps.secrets.open(token)) as ReplayClaim;
    } catch {
      return undefined;
    }
    if (typeof claim.roundId !== 'string' || !(claim.expireAt > isoNow(deps))) return undefined;
    return store.rounds.findRound(claim.roundId);
  }

  async function dossier(round: RoundRecord): Promise<RoundDossier> {
    const [detail, game, pool, walletAttempts, deliveries, resolution] = await Promise.all([
      store.ledger.findRoundDetail(round.id),
      store.games.findById(round.gameId),
      round.poolId === null ? undefined : store.pools.findById(round.poolId),
      store.rounds.walletAttemptsOfRound(round.id),
      store.webhooks.deliveriesOfRound(round.id),
      store.rounds.findResolution(round.id),
    ]);
    if (!detail) throw new Error(`round ${round.id} has no detail`);
    return { round, detail, game, pool, walletAttempts, deliveries, resolution };
  }

  return {
    /** A round of the caller's: unknown, or another client's, is 404. */
    async detail(auth: AuthContext, roundId: string): Promise<RoundDossier> {
      return dossier(await ownedRound(auth, roundId));
    },

    flagged: (auth: AuthContext, page: PageRequest) => store.ledger.listFlaggedRounds(auth.clientId, page),

    /** Closes a flagged round a person settled by hand; a round not flagged (now) is a 409. */
    async resolve(
      auth: AuthContext,
      roundId: string,
      input: { resolution: Resolution; note: string },
    ): Promise<RoundResolutionRecord> {
      await ownedRound(auth, roundId);
      const record: RoundResolutionRecord = { roundId, ...input, resolvedAt: isoNow(deps) };
      // Refused inside the unit, so a round not flagged leaves no audit entry either (audit-scope.ts).
      return store.transaction(async (tx) => {
        if (!(await tx.rounds.resolveFlagged(record))) {
          throw new ApiError('CONFLICT', `round ${roundId} is not flagged for reconciliation`);
        }
        return record;
      });
    },

    /** A read-only replay token for one of the caller's rounds, valid for REPLAY_TTL. */
    async issueReplay(auth: AuthContext, roundId: string): Promise<{ token: string; expireAt: string }> {
      await ownedRound(auth, roundId);
      const expireAt = isoIn(deps, deps.settings.replayTtlSeconds ?? SETTING_DEFAULTS.REPLAY_TTL);
      const claim: ReplayClaim = { roundId, expireAt };
      return { token: deps.secrets.seal(JSON.stringify(claim)), expireAt };
    },

    /** The round behind a live replay token, with everything behind it (GET /v1/replay/{token}). */
    async replay(token: string): Promise<RoundDossier | undefined> {
      const round = await replayedRound(token);
      return round && dossier(round);
    },

    /**
     * What the replay page itself needs (GET /replay/{token}): whether the token is live, and its
     * game's language. Two reads, not the dossier: the page then fetches the round from /v1/replay.
     */
    async replayCover(token: string): Promise<{ gameLang: string | undefined } | undefined> {
      const round = await replayedRound(token);
      if (!round) return undefined;
      return { gameLang: (await store.games.findById(round.gameId))?.lang };
    },
  };
}

export type RoundService = ReturnType<typeof createRoundService>;
