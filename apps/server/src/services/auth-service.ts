import { isoIn, isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { digest, newToken } from '../security/secrets.ts';
import type { ApiClientRecord, TokenOrigin } from '../store/records.ts';
import { ApiError } from './api-error.ts';
import { auditRow } from './audit-scope.ts';
import type { AuthContext } from './auth-context.ts';

export interface TokenSet {
  accessToken: string;
  signatureToken: string;
  expireAt: string;
}

const API_KEY_PREFIX = 'rsp_';

/** The audit log's operation for an API-key login (it carries no token: the service records it itself). */
export const AUDIT_API_LOGIN = 'POST /v1/auth/login';

/** API clients: creation, API-key login, and resolving a bearer token to its client. */
export function createAuthService(deps: Deps) {
  const { store, secrets } = deps;

  /** A new token set; `audit`: the audit entry of the sign-in, written in the same transaction. */
  async function issueTokenSet(
    clientId: string,
    via: TokenOrigin = 'api-key',
    audit?: { operation: string; ip: string },
  ): Promise<TokenSet> {
    const accessToken = newToken(deps.random, 32);
    const expireAt = isoIn(deps, deps.settings.tokenTtlSeconds);
    await store.transaction(async (tx) => {
      await tx.clients.insertTokenSet({
        id: deps.newId(),
        clientId,
        accessHash: digest(accessToken),
        expireAt,
        revokedAt: null,
        createdAt: isoNow(deps),
        via,
      });
      if (audit) await tx.audit.insert(auditRow(deps, { clientId, actor: via, targetId: null, ...audit }));
    });
    return { accessToken, signatureToken: secrets.signatureTokenFor(accessToken), expireAt };
  }

  return {
    issueTokenSet,

    /**
     * A token set for an API key, the login in the client's audit log. A refused key names no
     * client (only digests are kept, and a rotated key's is gone), so it belongs to no client's log:
     * it is a warning in the service's log, with the address and never the key.
     */
    async login(apiKey: string, ip: string): Promise<TokenSet> {
      const client = await store.clients.findClientByApiKeyHash(digest(apiKey));
      if (!client) {
        deps.logger.warn('apiKey login refused: no API client has this key', { ip });
        throw new ApiError('UNAUTHORIZED', 'apiKey is not valid');
      }
      return issueTokenSet(client.id, 'api-key', { operation: AUDIT_API_LOGIN, ip });
    },

    async authenticate(accessToken: string): Promise<AuthContext | undefined> {
      const tokenSet = await store.clients.findLiveTokenSet(digest(accessToken), isoNow(deps));
      if (!tokenSet) return undefined;
      return {
        clientId: tokenSet.clientId,
        tokenSetId: tokenSet.id,
        via: tokenSet.via,
        signatureToken: secrets.signatureTokenFor(accessToken),
      };
    },

    /** Ends the caller's token set (a sign-out): its accessToken and signatureToken stop working at once. */
    async logout(auth: AuthContext): Promise<void> {
      await store.transaction((tx) => tx.clients.revokeTokenSet(auth.tokenSetId, isoNow(deps)));
    },

    /**
     * Replaces the client's apiKey with a new one, returned once (only its digest is kept). The old
     * key logs in no more, and the token sets it gave are revoked (the panel's stay live).
     */
    async rotateKey(auth: AuthContext): Promise<{ apiKey: string }> {
      const apiKey = newToken(deps.random, 32, API_KEY_PREFIX);
      await store.transaction(async (tx) => {
        await tx.clients.setApiKeyHash(auth.clientId, digest(apiKey));
        await tx.clients.revokeTokenSets(auth.clientId, isoNow(deps), 'api-key');
      });
      return { apiKey };
    },

    /** Creates an API client; the apiKey is returned once and only its digest is kept. */
    async createClient(input: { name: string; email: string; password?: string; apiKey?: string }) {
      if (await store.clients.findClientByEmail(input.email)) {
        throw new ApiError('CONFLICT', `an API client with e-mail ${input.email} already exists`);
      }
      const apiKey = input.apiKey ?? newToken(deps.random, 32, API_KEY_PREFIX);
      const client: ApiClientRecord = {
        id: deps.newId(),
        name: input.name,
        email: input.email,
        apiKeyHash: digest(apiKey),
        passwordHash: input.password ? await deps.passwords.hash(input.password) : null,
        lang: 'en',
        createdAt: isoNow(deps),
      };
      await store.clients.insertClient(client);
      return { client, apiKey };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
