import type { Logger } from '../logger.ts';
import type { OutboundPolicy } from '../outbound/host-resolution.ts';
import { createPinnedAgent } from '../outbound/pinned-connector.ts';
import type { SecretBox } from '../security/secrets.ts';
import type { Store } from '../store/store.ts';
import { createDemoWallet } from './demo-wallet.ts';
import { createHttpWallet, DEFAULT_WALLET_TIMEOUT_MS } from './http-wallet.ts';
import type { Wallet, WalletAnswer, WalletDirectory, WalletProfile } from './wallet.ts';
import { dispatcherTransport, type WalletTransport } from './wallet-transport.ts';

export interface WalletDirectoryOptions {
  store: Store;
  secrets: SecretBox;
  logger: Logger;
  timeoutMs?: number;
  /** Where wallets may be reached: every connection is resolved, checked and pinned to that address. */
  policy: OutboundPolicy;
  /** How calls are sent; default: undici requests over one pinned agent. */
  transport?: WalletTransport;
  /** Time for the demo wallet's records; defaults to the system clock. */
  clock?: () => Date;
}

/**
 * Demo profiles play against the built-in demo wallet; every other profile against its operator's
 * wallet over HTTP. HTTP wallets are kept per profile and rebuilt when its walletUrl or token
 * changes, so connections to one operator are reused across rounds.
 */
export function createWalletDirectory(options: WalletDirectoryOptions): WalletDirectory {
  const { store, secrets, logger } = options;
  const demo = createDemoWallet(store, { clock: options.clock ?? (() => new Date()), logger });
  const byProfile = new Map<string, { key: string; wallet: Wallet }>();
  // One agent for every wallet: a pool of keep-alive connections per wallet origin.
  const transport = options.transport ?? dispatcherTransport(createPinnedAgent(options.policy));

  function httpWallet(profile: WalletProfile): Wallet {
    if (!profile.walletUrl || !profile.walletTokenSealed) {
      logger.error('profile has no wallet configured', { profileId: profile.id });
      return unreachableWallet('WALLET_NOT_CONFIGURED', 'The profile has no wallet configured.');
    }
    const key = `${profile.type}\n${profile.walletUrl}\n${profile.walletTokenSealed}`;
    const cached = byProfile.get(profile.id);
    if (cached?.key === key) return cached.wallet;
    let signatureToken: string;
    try {
      signatureToken = secrets.open(profile.walletTokenSealed);
    } catch {
      // E.g. the server key changed: the token cannot be recovered, so the wallet cannot be called.
      logger.error('cannot unseal the wallet token of a profile', { profileId: profile.id });
      return unreachableWallet('WALLET_NOT_CONFIGURED', 'The wallet token of the profile cannot be read.');
    }
    const wallet = createHttpWallet({
      walletUrl: profile.walletUrl,
      signatureToken,
      timeoutMs: options.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS,
      transport,
      logger,
      test: profile.type === 'test',
    });
    byProfile.set(profile.id, { key, wallet });
    return wallet;
  }

  return {
    forProfile: (profile) => (profile.type === 'demo' ? demo : httpWallet(profile)),
  };
}

/**
 * A profile whose wallet cannot be called. Nothing is sent, so a bet or a balance is a definite
 * no (httpStatus 0: no HTTP call was made); a prize or a rollback stays unknown, so the play
 * service keeps retrying it until the profile is fixed rather than dropping money owed.
 */
function unreachableWallet(code: string, message: string): Wallet {
  const no: WalletAnswer = { kind: 'declined', code, message, httpStatus: 0 };
  const unknown: WalletAnswer = { kind: 'unknown', reason: message };
  return {
    balance: async () => no,
    bet: async () => no,
    prize: async () => unknown,
    rollback: async () => unknown,
  };
}
