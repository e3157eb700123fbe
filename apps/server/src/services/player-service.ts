import { isoIn, isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { digest, newToken } from '../security/secrets.ts';
import type { Page, PageRequest } from '../store/paging.ts';
import type { CredentialType, PlayerRecord, ProfileRecord } from '../store/records.ts';
import type { AuthContext } from './auth-context.ts';
import { referencedProfile } from './game-service.ts';

/** A userToken lives 2 hours (spec: "stored for about 2 hours"; docs/contract.md §3), whatever TOKEN_TTL says. */
export const USER_TOKEN_TTL_SECONDS = 2 * 60 * 60;

const USER_TOKEN_PREFIX = 'usr_';

export interface PlayerLogin {
  player: PlayerRecord;
  /** Whether this call created the player. */
  created: boolean;
  userToken: string;
  expireAt: string;
}

/** Players: logged in (and created on first sight) by the integrator, listed per profile. */
export function createPlayerService(deps: Deps) {
  const { store } = deps;

  return {
    /** Logs the player in, creating it on first sight, and issues a fresh userToken (kept only as a digest). */
    logIn(
      auth: AuthContext,
      input: { profileId: string; credential: string; credentialType: CredentialType },
    ): Promise<PlayerLogin> {
      return store.transaction(async (tx) => {
        const profile = await referencedProfile(tx, auth.clientId, input.profileId);
        const now = isoNow(deps);
        let player = await tx.players.findByCredential(profile.id, input.credentialType, input.credential);
        const created = player === undefined;
        if (!player) {
          player = {
            id: deps.newId(),
            clientId: profile.clientId,
            profileId: profile.id,
            credential: input.credential,
            credentialType: input.credentialType,
            balanceMinor: 0,
            betWins: 0,
            totalBets: 0,
            createdAt: now,
          };
          await tx.players.insert(player);
        }
        const userToken = newToken(deps.random, 32, USER_TOKEN_PREFIX);
        const expireAt = isoIn(deps, USER_TOKEN_TTL_SECONDS);
        await tx.players.insertUserToken({
          tokenHash: digest(userToken),
          playerId: player.id,
          expireAt,
          createdAt: now,
        });
        return { player, created, userToken, expireAt };
      });
    },

    async list(
      auth: AuthContext,
      profileId: string,
      page: PageRequest,
      search?: string,
    ): Promise<{
      profile: ProfileRecord;
      page: Page<PlayerRecord>;
      /** Each listed player's last reported balance per currency (minor units). */
      balances: Map<string, Record<string, number>>;
    }> {
      const profile = await referencedProfile(store, auth.clientId, profileId);
      const players = await store.players.listByProfile(profile.id, page, search);
      return {
        profile,
        page: players,
        balances: await store.players.balancesOf(players.items.map((player) => player.id)),
      };
    },

    /** The player behind a live userToken, or undefined when it is unknown or has expired. */
    resolveUserToken(userToken: string): Promise<PlayerRecord | undefined> {
      return store.players.findByLiveUserToken(digest(userToken), isoNow(deps));
    },
  };
}

export type PlayerService = ReturnType<typeof createPlayerService>;
