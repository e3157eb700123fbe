import { currencyExponent } from '@raspa/core';
import type { Logger } from '../logger.ts';
import type { DemoWalletCallKind, DemoWalletCallRecord } from '../store/records.ts';
import type { DemoWalletRepo } from '../store/repositories.ts';
import type { Store } from '../store/store.ts';
import type { Wallet, WalletAnswer, WalletMovement, WalletPlayer, WalletRollback } from './wallet.ts';

/** Every demo player starts with this many major units of each currency it plays in. */
export const DEMO_STARTING_BALANCE_MAJOR = 1000;

export interface DemoWalletDeps {
  clock: () => Date;
  logger: Logger;
}

/**
 * The built-in wallet of demo profiles, in the service's own database. It keeps the rules an
 * operator's wallet must keep (docs/contract.md §6), so demo play behaves like real play: a bet debits or
 * is declined with INSUFFICIENT_FUNDS, a prize credits, a rollback re-credits an applied bet once,
 * a rollback of an unknown transaction succeeds, and a repeated transactionId gets its first answer
 * verbatim. Each call is one store transaction; declines use the HTTP status an operator would
 * send.
 */
export function createDemoWallet(store: Store, deps: DemoWalletDeps): Wallet {
  /** The player's balance in the call's currency, opening that account with the starting balance on first use. */
  async function openBalance(repo: DemoWalletRepo, player: WalletPlayer): Promise<number> {
    const balance = await repo.findBalance(player.userId, player.currency);
    if (balance !== undefined) return balance;
    const start = DEMO_STARTING_BALANCE_MAJOR * 10 ** currencyExponent(player.currency);
    await repo.insertAccount(player.userId, player.currency, start);
    return start;
  }

  /** Runs one call atomically: a repeat of its transactionId replays the recorded answer. */
  async function record(
    repo: DemoWalletRepo,
    movement: WalletMovement,
    kind: DemoWalletCallKind,
    decide: () => Promise<WalletAnswer>,
  ): Promise<WalletAnswer> {
    const first = await repo.findCall(movement.transactionId);
    if (first) return JSON.parse(first.answer) as WalletAnswer;
    // A malformed call is refused without being recorded, as an HTTP wallet answers a 400.
    const invalid = invalidMovement(movement);
    if (invalid) return invalid;
    const answer = await decide();
    await repo.insertCall(
      callRecord(movement.transactionId, movement.userId, kind, movement.amountMinor, answer),
    );
    return answer;
  }

  function callRecord(
    transactionId: string,
    playerId: string,
    kind: DemoWalletCallKind,
    amountMinor: number,
    answer: WalletAnswer,
  ): DemoWalletCallRecord {
    return {
      transactionId,
      playerId,
      kind,
      amountMinor,
      answer: JSON.stringify(answer),
      createdAt: deps.clock().toISOString(),
    };
  }

  function bet(repo: DemoWalletRepo, movement: WalletMovement): Promise<WalletAnswer> {
    return record(repo, movement, 'bet', async () => {
      const balance = await openBalance(repo, movement);
      if (balance < movement.amountMinor) {
        return declined('INSUFFICIENT_FUNDS', 'The balance is lower than the bet.', 402);
      }
      await repo.setBalance(movement.userId, movement.currency, balance - movement.amountMinor);
      return { kind: 'ok', balanceMinor: balance - movement.amountMinor };
    });
  }

  function prize(repo: DemoWalletRepo, movement: WalletMovement): Promise<WalletAnswer> {
    return record(repo, movement, 'prize', async () => {
      const balance = (await openBalance(repo, movement)) + movement.amountMinor;
      await repo.setBalance(movement.userId, movement.currency, balance);
      return { kind: 'ok', balanceMinor: balance };
    });
  }

  function rollback(repo: DemoWalletRepo, movement: WalletRollback): Promise<WalletAnswer> {
    return record(repo, movement, 'rollback', async () => {
      const balance = await openBalance(repo, movement);
      const original = await repo.findCall(movement.originalTransactionId);
      if (!original) {
        // Never seen: nothing to give back, and a bet arriving later with that id must not debit.
        const refusal = declined('TRANSACTION_ROLLED_BACK', 'This transaction was rolled back.', 409);
        await repo.insertCall(
          callRecord(movement.originalTransactionId, movement.userId, 'voided', 0, refusal),
        );
        return { kind: 'ok', balanceMinor: balance };
      }
      if (original.playerId !== movement.userId) {
        return declined('TRANSACTION_MISMATCH', 'The original transaction is another player’s.', 409);
      }
      if (original.kind === 'prize' || original.kind === 'rollback') {
        return declined('NOT_A_BET', 'Only a bet can be rolled back.', 409);
      }
      const applied = (JSON.parse(original.answer) as WalletAnswer).kind === 'ok';
      if (original.kind !== 'bet' || !applied) return { kind: 'ok', balanceMinor: balance };
      await repo.setCallKind(original.transactionId, 'bet-rolled-back');
      await repo.setBalance(movement.userId, movement.currency, balance + original.amountMinor);
      return { kind: 'ok', balanceMinor: balance + original.amountMinor };
    });
  }

  /** Runs a call in its own write transaction; a failure is an unknown answer, never a throw. */
  async function run(
    call: string,
    work: (repo: DemoWalletRepo) => Promise<WalletAnswer>,
  ): Promise<WalletAnswer> {
    try {
      return await store.transaction((tx) => work(tx.demoWallet));
    } catch (error) {
      deps.logger.error('demo wallet call failed', { call, error: String(error) });
      return { kind: 'unknown', reason: `demo wallet failure: ${String(error)}` };
    }
  }

  return {
    balance: (player) =>
      run('balance', async (repo) => ({ kind: 'ok', balanceMinor: await openBalance(repo, player) })),
    bet: (movement) => run('bet', (repo) => bet(repo, movement)),
    prize: (movement) => run('prize', (repo) => prize(repo, movement)),
    rollback: (movement) => run('rollback', (repo) => rollback(repo, movement)),
  };
}

function invalidMovement(movement: WalletMovement): WalletAnswer | undefined {
  if (!Number.isSafeInteger(movement.amountMinor) || movement.amountMinor <= 0) {
    return declined('INVALID_AMOUNT', 'The amount must be a positive number of minor units.', 400);
  }
  if ('originalTransactionId' in movement && movement.originalTransactionId === movement.transactionId) {
    return declined('INVALID_REQUEST', 'A rollback needs a transactionId of its own.', 400);
  }
  return undefined;
}

function declined(code: string, message: string, httpStatus: number): WalletAnswer {
  return { kind: 'declined', code, message, httpStatus };
}
