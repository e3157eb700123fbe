import { performance } from 'node:perf_hooks';
import type { Metrics } from '../ops/metrics.ts';
import type { Wallet, WalletAnswer, WalletDirectory } from '../wallet/wallet.ts';

type Operation = keyof Wallet;
const OPERATIONS: readonly Operation[] = ['balance', 'bet', 'prize', 'rollback'];

/**
 * The wallet directory with every call counted and timed by operation and result, wrapped from the
 * outside so the wallets themselves know nothing of metrics. Wrappers are kept per wallet, since the
 * directory keeps its wallets (and their connections) per profile.
 */
export function meteredWallets(directory: WalletDirectory, metrics: Metrics): WalletDirectory {
  const wrapped = new WeakMap<Wallet, Wallet>();
  const wrap = (wallet: Wallet, kind: string): Wallet => {
    const metered = Object.fromEntries(
      OPERATIONS.map((operation) => [
        operation,
        async (request: never): Promise<WalletAnswer> => {
          const started = performance.now();
          const answer = await (wallet[operation] as (request: never) => Promise<WalletAnswer>)(request);
          metrics.walletCall(operation, answer.kind, kind, (performance.now() - started) / 1000);
          return answer;
        },
      ]),
    ) as unknown as Wallet;
    wrapped.set(wallet, metered);
    return metered;
  };
  return {
    forProfile(profile) {
      const wallet = directory.forProfile(profile);
      return wrapped.get(wallet) ?? wrap(wallet, profile.type === 'demo' ? 'demo' : 'http');
    },
  };
}
