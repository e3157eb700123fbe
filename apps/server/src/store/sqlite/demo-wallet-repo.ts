import type { DemoWalletCallRecord } from '../records.ts';
import type { DemoWalletRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const CALL_COLUMNS = `transaction_id AS transactionId, player_id AS playerId, kind,
  amount_minor AS amountMinor, answer, created_at AS createdAt`;

export function createDemoWalletRepo(db: Db): Sync<DemoWalletRepo> {
  const balance = db.prepare<[string, string], { balanceMinor: number }>(
    'SELECT balance_minor AS balanceMinor FROM demo_wallet_accounts WHERE player_id = ? AND currency = ?',
  );
  const insertAccount = db.prepare<[string, string, number]>(
    'INSERT INTO demo_wallet_accounts (player_id, currency, balance_minor) VALUES (?, ?, ?)',
  );
  const setBalance = db.prepare<[number, string, string]>(
    'UPDATE demo_wallet_accounts SET balance_minor = ? WHERE player_id = ? AND currency = ?',
  );
  const call = db.prepare<[string], DemoWalletCallRecord>(
    `SELECT ${CALL_COLUMNS} FROM demo_wallet_calls WHERE transaction_id = ?`,
  );
  const insertCall = db.prepare(`INSERT INTO demo_wallet_calls (transaction_id, player_id, kind, amount_minor,
    answer, created_at) VALUES (@transactionId, @playerId, @kind, @amountMinor, @answer, @createdAt)`);
  const setKind = db.prepare<[string, string]>(
    'UPDATE demo_wallet_calls SET kind = ? WHERE transaction_id = ?',
  );
  return {
    findBalance: (playerId, currency) => balance.get(playerId, currency)?.balanceMinor,
    insertAccount: (playerId, currency, balanceMinor) =>
      void insertAccount.run(playerId, currency, balanceMinor),
    setBalance: (playerId, currency, balanceMinor) => void setBalance.run(balanceMinor, playerId, currency),
    findCall: (transactionId) => call.get(transactionId),
    insertCall: (record) => void insertCall.run(record),
    setCallKind: (transactionId, kind) => void setKind.run(kind, transactionId),
  };
}
