import type { DemoWalletCallRecord } from '../records.ts';
import type { DemoWalletRepo } from '../repositories.ts';
import { first, type Sql } from './sql.ts';

const CALL_COLUMNS = `transaction_id AS "transactionId", player_id AS "playerId", kind,
  amount_minor AS "amountMinor", answer, created_at AS "createdAt"`;

export function createDemoWalletRepo(sql: Sql): DemoWalletRepo {
  return {
    findBalance: async (playerId, currency) =>
      (
        await first<{ balanceMinor: number }>(
          sql,
          'SELECT balance_minor AS "balanceMinor" FROM demo_wallet_accounts WHERE player_id = $1 AND currency = $2',
          [playerId, currency],
        )
      )?.balanceMinor,
    insertAccount: async (playerId, currency, balanceMinor) =>
      void (await sql.query(
        'INSERT INTO demo_wallet_accounts (player_id, currency, balance_minor) VALUES ($1, $2, $3)',
        [playerId, currency, balanceMinor],
      )),
    setBalance: async (playerId, currency, balanceMinor) =>
      void (await sql.query(
        'UPDATE demo_wallet_accounts SET balance_minor = $1 WHERE player_id = $2 AND currency = $3',
        [balanceMinor, playerId, currency],
      )),
    findCall: (transactionId) =>
      first<DemoWalletCallRecord>(
        sql,
        `SELECT ${CALL_COLUMNS} FROM demo_wallet_calls WHERE transaction_id = $1`,
        [transactionId],
      ),
    insertCall: async (c) =>
      void (await sql.query(
        `INSERT INTO demo_wallet_calls (transaction_id, player_id, kind, amount_minor, answer, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [c.transactionId, c.playerId, c.kind, c.amountMinor, c.answer, c.createdAt],
      )),
    setCallKind: async (transactionId, kind) =>
      void (await sql.query('UPDATE demo_wallet_calls SET kind = $1 WHERE transaction_id = $2', [
        kind,
        transactionId,
      ])),
  };
}
