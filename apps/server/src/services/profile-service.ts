import { type Jurisdiction, playRulesOf } from '@raspa/core';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { PageRequest } from '../store/paging.ts';
import { PROFILE_PROTECTION_DEFAULTS, type ProfileRecord, type ProfileType } from '../store/records.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { outboundPolicy, requireOutboundUrl } from './outbound-check.ts';
import { owned } from './ownership.ts';

export interface ProfileInput {
  name: string;
  type: ProfileType;
  /** Default: the first of `currencies`, else BRL. */
  currency?: string | undefined;
  /** Absent (or null on a change) = any ISO 4217 code. */
  currencies?: string[] | null | undefined;
  walletUrl?: string | undefined;
  walletSignatureToken?: string | undefined;
  allowedOrigins: string[];
  /** Player protection (docs/player-protection.md); absent on create: none, UTC, none, none. */
  jurisdiction?: Jurisdiction | null | undefined;
  timezone?: string | undefined;
  realityCheckMinutes?: number | null | undefined;
  responsibleGamingUrl?: string | null | undefined;
}

export type ProfileChange = { [K in keyof ProfileInput]?: ProfileInput[K] | undefined };

/** The protection fields a create or change gives, leaving out those it does not. */
function protectionFieldsOf(input: ProfileChange): Partial<ProfileRecord> {
  return {
    ...(input.jurisdiction !== undefined && { jurisdiction: input.jurisdiction }),
    ...(input.timezone !== undefined && { timezone: input.timezone }),
    ...(input.realityCheckMinutes !== undefined && { realityCheckMinutes: input.realityCheckMinutes }),
    ...(input.responsibleGamingUrl !== undefined && { responsibleGamingUrl: input.responsibleGamingUrl }),
  };
}

/**
 * Operator profiles: each has a wallet (unless demo), the currencies that wallet takes (any, unless
 * listed), a default currency and the origins that may frame its games.
 */
/** `changed` is told of every profile this service changed, once committed (the play records' cache). */
export function createProfileService(deps: Deps, hooks: { changed?: (profileId: string) => void } = {}) {
  const { store } = deps;
  const policy = outboundPolicy(deps);

  function requireWallet(profile: ProfileRecord): void {
    if (profile.type !== 'demo' && (!profile.walletUrl || !profile.walletTokenSealed)) {
      throw new ApiError('VALIDATION_ERROR', [
        'walletUrl and walletSignatureToken are required unless type is demo (demo profiles use the built-in demo wallet)',
      ]);
    }
  }

  /** The default currency must be one the wallet takes, when they are listed. */
  function requireDefaultCurrency(profile: ProfileRecord): void {
    if (profile.currencies && !profile.currencies.includes(profile.currency)) {
      throw new ApiError('VALIDATION_ERROR', [
        `currency: ${profile.currency} is not one of the profile's currencies (${profile.currencies.join(', ')})`,
      ]);
    }
  }

  return {
    async create(auth: AuthContext, input: ProfileInput): Promise<ProfileRecord> {
      // Checked here and again at each wallet call (DNS may answer differently by then).
      if (input.walletUrl !== undefined) await requireOutboundUrl(policy, 'walletUrl', input.walletUrl);
      const currencies = input.currencies ?? null;
      const now = isoNow(deps);
      const profile: ProfileRecord = {
        id: deps.newId(),
        clientId: auth.clientId,
        name: input.name,
        type: input.type,
        currency: input.currency ?? currencies?.[0] ?? 'BRL',
        currencies,
        walletUrl: input.walletUrl ?? null,
        walletTokenSealed: input.walletSignatureToken ? deps.secrets.seal(input.walletSignatureToken) : null,
        allowedOrigins: input.allowedOrigins,
        ...PROFILE_PROTECTION_DEFAULTS,
        ...protectionFieldsOf(input),
        createdAt: now,
        updatedAt: now,
      };
      requireWallet(profile);
      requireDefaultCurrency(profile);
      // A unit of its own, so that the audit entry is written with it (audit-scope.ts).
      return store.transaction(async (tx) => {
        await tx.profiles.insert(profile);
        return profile;
      });
    },

    async get(auth: AuthContext, profileId: string): Promise<ProfileRecord> {
      return owned(await store.profiles.findById(profileId), auth.clientId, `profile ${profileId}`);
    },

    list(auth: AuthContext, page: PageRequest) {
      return store.profiles.listByClient(auth.clientId, page);
    },

    /** Changes the given fields; a wallet token left out is kept. */
    async update(auth: AuthContext, profileId: string, change: ProfileChange): Promise<ProfileRecord> {
      if (change.walletUrl !== undefined) await requireOutboundUrl(policy, 'walletUrl', change.walletUrl);
      return store.transaction(async (tx) => {
        const current = owned(await tx.profiles.findById(profileId), auth.clientId, `profile ${profileId}`);
        const next: ProfileRecord = {
          ...current,
          ...(change.name !== undefined && { name: change.name }),
          ...(change.type !== undefined && { type: change.type }),
          ...(change.currency !== undefined && { currency: change.currency }),
          ...(change.currencies !== undefined && { currencies: change.currencies }),
          ...(change.walletUrl !== undefined && { walletUrl: change.walletUrl }),
          ...(change.allowedOrigins !== undefined && { allowedOrigins: change.allowedOrigins }),
          ...protectionFieldsOf(change),
          ...(change.walletSignatureToken !== undefined && {
            walletTokenSealed: deps.secrets.seal(change.walletSignatureToken),
          }),
          updatedAt: isoNow(deps),
        };
        requireWallet(next);
        requireDefaultCurrency(next);
        // Test rounds are told from real ones by their profile: a switch would mix them.
        if ((current.type === 'test') !== (next.type === 'test')) {
          throw new ApiError(
            'CONFLICT',
            `type: profile ${profileId} is of type ${current.type}; a profile never changes to or from test (create another profile)`,
          );
        }
        if (playRulesOf(current.jurisdiction).freeCards && !playRulesOf(next.jurisdiction).freeCards) {
          // Cards granted before would stay playable under rules that forbid them (promotions.md).
          const count = await tx.promotions.countOpen(profileId, next.updatedAt);
          if (count > 0) {
            throw new ApiError(
              'CONFLICT',
              `jurisdiction: ${next.jurisdiction} rules forbid free cards, and profile ${profileId} has ${count} scheduled or active ${count === 1 ? 'promotion' : 'promotions'}: cancel ${count === 1 ? 'it' : 'them'} first (DELETE /v1/promotion/{promotionId})`,
            );
          }
        }
        await tx.profiles.update(next);
        const { changed } = hooks;
        if (changed) tx.afterCommit(() => changed(profileId));
        return next;
      });
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
