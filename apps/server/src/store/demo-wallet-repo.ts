import type { Db } from './database.ts';

/**
 * What a call of the demo wallet is, now: `bet`, `prize`, `rollback`; a bet that a later rollback
 * re-credited becomes `bet-rolled-back`; `voided` marks the id of a transaction that was rolled
 * back before the demo wallet ever saw it, so a late bet with that id cannot debit.
 */
export type DemoWalletCallKind = 'bet' | 'bet-rolled-back' | 'prize' | 'rollback' | 'voided';

export interface DemoWalletCallRecord {
  transactionId: string;
  playerId: string;
  kind: DemoWalletCallKind;
  amountMinor: number;
  /** The first answer, as JSON: a repeat of the transactionId gets it back verbatim. */
  answer: string;
  createdAt: string;
}

/** The built-in demo wallet's balances, one per player and currency, and calls (002_play.sql, 005). */
export interface DemoWalletRepo {
  findBalance(playerId: string, currency: string): number | undefined;
  insertAccount(playerId: string, currency: string, balanceMinor: number): void;
  setBalance(playerId: string, currency: string, balanceMinor: number): void;
  findCall(transactionId: string): DemoWalletCallRecord | undefined;
  insertCall(call: DemoWalletCallRecord): void;
  setCallKind(transactionId: string, kind: DemoWalletCallKind): void;
}

const CALL_COLUMNS = `transaction_id AS transactionId, player_id AS playerId, kind,
  amount_minor AS amountMinor, answer, created_at AS createdAt`;

export function createDemoWalletRepo(db: Db): DemoWalletRepo {
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
