import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { DemoWalletCallRecord } from '../records.ts';
import type { DemoWalletRepo } from '../repositories.ts';

const CALL_COLUMNS = `transaction_id AS "transactionId", player_id AS "playerId", kind,
  amount_minor AS "amountMinor", answer, created_at AS "createdAt"`;

interface Account {
  playerId: string;
  currency: string;
}

const balance = statement<Account, { balanceMinor: number }>(
  'SELECT balance_minor AS "balanceMinor" FROM demo_wallet_accounts WHERE player_id = :playerId AND currency = :currency',
);
const insertAccount = statement<Account & { balanceMinor: number }>(
  'INSERT INTO demo_wallet_accounts (player_id, currency, balance_minor) VALUES (:playerId, :currency, :balanceMinor)',
);
const setBalance = statement<Account & { balanceMinor: number }>(
  'UPDATE demo_wallet_accounts SET balance_minor = :balanceMinor WHERE player_id = :playerId AND currency = :currency',
);
const call = statement<{ transactionId: string }, DemoWalletCallRecord>(
  `SELECT ${CALL_COLUMNS} FROM demo_wallet_calls WHERE transaction_id = :transactionId`,
);
const insertCall =
  statement<DemoWalletCallRecord>(`INSERT INTO demo_wallet_calls (transaction_id, player_id, kind,
  amount_minor, answer, created_at) VALUES (:transactionId, :playerId, :kind, :amountMinor, :answer, :createdAt)`);
const setKind = statement<{ transactionId: string; kind: string }>(
  'UPDATE demo_wallet_calls SET kind = :kind WHERE transaction_id = :transactionId',
);

export function createDemoWalletRepo(x: Exec): DemoWalletRepo {
  return {
    findBalance: async (playerId, currency) => (await x.first(balance, { playerId, currency }))?.balanceMinor,
    insertAccount: async (playerId, currency, balanceMinor) =>
      void (await x.run(insertAccount, { playerId, currency, balanceMinor })),
    setBalance: async (playerId, currency, balanceMinor) =>
      void (await x.run(setBalance, { playerId, currency, balanceMinor })),
    findCall: async (transactionId) => x.first(call, { transactionId }),
    insertCall: async (record) => void (await x.run(insertCall, record)),
    setCallKind: async (transactionId, kind) => void (await x.run(setKind, { transactionId, kind })),
  };
}
