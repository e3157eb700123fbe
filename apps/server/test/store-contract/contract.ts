/**
 * The repository contract every Store adapter must pass (store/store.ts, store/repositories.ts):
 * the documented behaviour of each repository method and the semantics of Store.transaction,
 * through the public interface only. An adapter's test file calls describeStoreContract with a
 * function that opens a new, empty, migrated store each time (one per test).
 */
import { describe } from 'vitest';
import { describeBackOfficeContract } from './back-office.ts';
import { describeClientsContract } from './clients.ts';
import type { OpenStore } from './fixtures.ts';
import { describeLedgerContract } from './ledger.ts';
import { describeProfilesGamesPlayersContract } from './profiles-games-players.ts';
import { describePromotionsContract } from './promotions.ts';
import { describeProtectionContract } from './protection.ts';
import { describeResetsWalletOpsContract } from './resets-wallet-ops.ts';
import { describeRoundEventsContract } from './round-events.ts';
import { describeRoundsPoolsContract } from './rounds-pools.ts';
import { describeTransactionContract } from './transactions.ts';
import { describeWebhooksOutboxContract } from './webhooks-outbox.ts';

export type { OpenedStore, OpenStore } from './fixtures.ts';

export function describeStoreContract(adapterName: string, open: OpenStore): void {
  describe(`Store contract: ${adapterName}`, () => {
    describeTransactionContract(open);
    describeClientsContract(open);
    describeProfilesGamesPlayersContract(open);
    describeRoundsPoolsContract(open);
    describeLedgerContract(open);
    describeWebhooksOutboxContract(open);
    describeRoundEventsContract(open);
    describeResetsWalletOpsContract(open);
    describeBackOfficeContract(open);
    describePromotionsContract(open);
    describeProtectionContract(open);
  });
}
