/**
 * Wallet conformance checker: exercises an operator's wallet (docs/contract.md §6) the way the service
 * calls it, through the same HTTP client, and says which rules hold.
 *
 *   pnpm wallet-check --url <walletUrl> --secret <walletSignatureToken> [--currency BRL]
 *     [--credential test-player] [--timeout-ms 5000]
 *
 * Exit 0 when every check passes, 1 when one fails, 2 on bad usage. Some checks move money on the
 * player's account (marked): run it against a test account. A conforming wallet ends at the
 * balance it started with.
 */
import { randomBytes } from 'node:crypto';
import { currencyExponent, formatAmount, isCurrencyCode } from '@raspa/core';
import { canonicalBody, SIGNATURE_HEADER, signCanonical } from '@raspa/core/signer';
import { silentLogger } from '../logger.ts';
import { createHttpWallet, walletBody, walletEndpoint } from '../wallet/http-wallet.ts';
import type { WalletAnswer, WalletMovement, WalletPlayer } from '../wallet/wallet.ts';
import { readToolOptions, refuseUsage } from './tool-options.ts';

interface Options {
  url: string;
  secret: string;
  currency: string;
  credential: string;
  timeoutMs: number;
}

interface Check {
  name: string;
  movesMoney: boolean;
  /** Resolves with what was seen when the rule holds; throws a CheckFailure when it does not. */
  run(): Promise<string>;
}

class CheckFailure extends Error {}

const USAGE =
  'usage: pnpm wallet-check --url <walletUrl> --secret <walletSignatureToken> [--currency BRL] ' +
  '[--credential test-player] [--timeout-ms 5000]';

function readOptions(argv: string[]): Options | string {
  const values = readToolOptions(argv, ['url', 'secret', 'currency', 'credential', 'timeout-ms']);
  if (typeof values === 'string') return values;
  const { url, secret, currency = 'BRL', credential = 'test-player' } = values;
  if (!url || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) return '--url must be an http(s) URL';
  if (!secret) return '--secret is required (the walletSignatureToken of the profile)';
  if (!isCurrencyCode(currency)) return `--currency: ${currency} is not an ISO 4217 code`;
  const timeoutMs = Number(values['timeout-ms'] ?? '5000');
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) return '--timeout-ms must be a positive whole number';
  return { url, secret, currency, credential, timeoutMs };
}

function buildChecks(options: Options): Check[] {
  const { currency } = options;
  const wallet = createHttpWallet({
    walletUrl: options.url,
    signatureToken: options.secret,
    timeoutMs: options.timeoutMs,
    logger: silentLogger,
  });
  const run = randomBytes(6).toString('hex');
  let sequence = 0;
  const newId = (what: string) => `wallet-check-${run}-${what}-${++sequence}`;
  const player: WalletPlayer = {
    sessionId: `wallet-check-${run}`,
    userId: 'wallet-check-user',
    credential: options.credential,
    currency,
  };
  const movement = (amountMinor: number): WalletMovement => ({
    ...player,
    transactionId: newId('tx'),
    roundId: newId('round'),
    amountMinor,
    gameId: 'wallet-check-game',
    gameModel: 'oxe-ganhei',
  });
  const unit = 10 ** currencyExponent(currency);
  // 1.25 in a two-decimal currency, so the amounts carry decimals.
  const stake = unit + Math.floor(unit / 4);
  const money = (minor: number) => `${formatAmount(minor, currency)} ${currency}`;

  const balanceNow = async () => okBalance(await wallet.balance(player), 'the balance call');
  const expectBalance = async (expected: number, what: string) => {
    const balance = await balanceNow();
    if (balance !== expected) {
      throw new CheckFailure(`${what}: the balance is ${money(balance)}, expected ${money(expected)}`);
    }
    return balance;
  };
  const expectSame = (first: WalletAnswer, repeat: WalletAnswer) => {
    if (JSON.stringify(first) !== JSON.stringify(repeat)) {
      throw new CheckFailure(`the repeat answered ${describe(repeat)}, the first call ${describe(first)}`);
    }
  };

  type Credited = { movement: WalletMovement; answer: WalletAnswer; before: number; after: number };
  /** Sends a prize and checks that it credited its amount, answered and seen by the balance call. */
  const creditPrize = async (prize: WalletMovement, what: string): Promise<Credited> => {
    const before = await balanceNow();
    const answer = await wallet.prize(prize);
    const after = okBalance(answer, what);
    if (after !== before + prize.amountMinor) {
      throw new CheckFailure(
        `${what} answered ${money(after)}, expected ${money(before)} + ${money(prize.amountMinor)}`,
      );
    }
    await expectBalance(after, `after ${what}`);
    return { movement: prize, answer, before, after };
  };
  /** Sends a prize again: the first answer, and no second credit. Resolves with the balance. */
  const repeatPrize = async (first: Credited): Promise<number> => {
    expectSame(first.answer, await wallet.prize(first.movement));
    return expectBalance(first.after, 'after the repeat');
  };

  // Shared by the checks that repeat an earlier call.
  let firstBet: { movement: WalletMovement; answer: WalletAnswer; after: number } | undefined;
  let firstPrize: Credited | undefined;
  let firstFreePrize: Credited | undefined;
  let firstRollback:
    | { movement: WalletMovement & { originalTransactionId: string }; answer: WalletAnswer; after: number }
    | undefined;
  const needs = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new CheckFailure(`not run: ${what} did not succeed`);
    return value;
  };

  return [
    {
      name: 'the balance call answers 200 {balance}',
      movesMoney: false,
      run: async () => `balance ${money(await balanceNow())}`,
    },
    {
      name: 'a signed bet debits the amount',
      movesMoney: true,
      run: async () => {
        const before = await balanceNow();
        const bet = movement(stake);
        const answer = await wallet.bet(bet);
        const after = okBalance(answer, 'the bet');
        if (after !== before - stake) {
          throw new CheckFailure(
            `the bet answered ${money(after)}, expected ${money(before)} − ${money(stake)}`,
          );
        }
        await expectBalance(after, 'after the bet');
        firstBet = { movement: bet, answer, after };
        return `bet ${money(stake)}: ${money(before)} → ${money(after)}`;
      },
    },
    {
      name: 'a repeated bet (same transactionId) gets the first answer and does not debit twice',
      movesMoney: true,
      run: async () => {
        const first = needs(firstBet, 'the bet');
        const repeat = await wallet.bet(first.movement);
        expectSame(first.answer, repeat);
        await expectBalance(first.after, 'after the repeat');
        return `balance still ${money(first.after)}`;
      },
    },
    {
      name: 'a prize credits the amount',
      movesMoney: true,
      run: async () => {
        firstPrize = await creditPrize(movement(stake), 'the prize');
        return `prize ${money(stake)}: ${money(firstPrize.before)} → ${money(firstPrize.after)}`;
      },
    },
    {
      name: 'a repeated prize gets the first answer and does not credit twice',
      movesMoney: true,
      run: async () => `balance still ${money(await repeatPrize(needs(firstPrize, 'the prize')))}`,
    },
    {
      name: 'a prize with promotionId and no bet before it (a free card) credits the amount',
      movesMoney: true,
      run: async () => {
        // A fresh round and transaction: a free card's round sends no /bet (docs/promotions.md).
        const promotionId = `wallet-check-promotion-${run}`;
        firstFreePrize = await creditPrize({ ...movement(stake), promotionId }, 'the free card’s prize');
        const { before, after } = firstFreePrize;
        return `prize ${money(stake)} of promotion ${promotionId}: ${money(before)} → ${money(after)}`;
      },
    },
    {
      name: 'a repeated free card prize gets the first answer and does not credit twice',
      movesMoney: true,
      run: async () => {
        const first = needs(firstFreePrize, 'the free card’s prize');
        const after = await repeatPrize(first);
        // Takes the credit back as the other checks do (a bet), so the player ends where it started.
        const restored = okBalance(await wallet.bet(movement(stake)), 'the bet taking the prize back');
        if (restored !== first.before) {
          throw new CheckFailure(
            `the bet taking the prize back left ${money(restored)}, expected ${money(first.before)}`,
          );
        }
        return `balance still ${money(after)}, then ${money(restored)} after a bet of ${money(stake)}`;
      },
    },
    {
      name: 'a rollback of a bet restores the balance',
      movesMoney: true,
      run: async () => {
        const before = await balanceNow();
        const bet = movement(stake);
        okBalance(await wallet.bet(bet), 'the bet to roll back');
        const rollback = { ...movement(stake), originalTransactionId: bet.transactionId };
        const answer = await wallet.rollback(rollback);
        const after = okBalance(answer, 'the rollback');
        if (after !== before) {
          throw new CheckFailure(
            `the rollback answered ${money(after)}, expected ${money(before)} (before the bet)`,
          );
        }
        await expectBalance(before, 'after the rollback');
        firstRollback = { movement: rollback, answer, after };
        return `bet ${money(stake)} then rolled back: balance ${money(after)}`;
      },
    },
    {
      name: 'a repeated rollback gets the first answer and does not credit twice',
      movesMoney: true,
      run: async () => {
        const first = needs(firstRollback, 'the rollback');
        const repeat = await wallet.rollback(first.movement);
        expectSame(first.answer, repeat);
        await expectBalance(first.after, 'after the repeat');
        return `balance still ${money(first.after)}`;
      },
    },
    {
      name: 'a rollback of a transaction the wallet never saw is a success',
      movesMoney: false,
      run: async () => {
        const before = await balanceNow();
        const rollback = { ...movement(stake), originalTransactionId: newId('never-sent') };
        const after = okBalance(await wallet.rollback(rollback), 'the rollback');
        if (after !== before)
          throw new CheckFailure(`the balance moved from ${money(before)} to ${money(after)}`);
        return `answered 200, balance ${money(after)}`;
      },
    },
    {
      name: 'a bet larger than the balance is declined with INSUFFICIENT_FUNDS',
      movesMoney: false,
      run: async () => {
        const before = await balanceNow();
        const answer = await wallet.bet(movement(before + unit));
        if (answer.kind !== 'declined') {
          throw new CheckFailure(`a bet of ${money(before + unit)} got ${describe(answer)}`);
        }
        await expectBalance(before, 'after the declined bet');
        if (answer.code !== 'INSUFFICIENT_FUNDS') {
          throw new CheckFailure(`declined with ${answer.code}, expected INSUFFICIENT_FUNDS`);
        }
        return `HTTP ${answer.httpStatus} ${answer.code}`;
      },
    },
    {
      name: 'a bet with a wrong or missing x-signed-request is refused and moves no money',
      movesMoney: false,
      run: async () => {
        const before = await balanceNow();
        const seen: string[] = [];
        for (const wrong of [true, false]) {
          const text = canonicalBody(walletBody('bet', movement(unit)));
          const signature = wrong ? signCanonical(text, `${options.secret}-not-it`) : undefined;
          const response = await fetch(walletEndpoint(options.url, 'bet'), {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(signature !== undefined && { [SIGNATURE_HEADER]: signature }),
            },
            body: text,
            redirect: 'manual',
            signal: AbortSignal.timeout(options.timeoutMs),
          });
          await response.arrayBuffer();
          const what = signature === undefined ? 'a missing signature' : 'a wrong signature';
          if (response.status < 400 || response.status >= 500) {
            throw new CheckFailure(`${what} got HTTP ${response.status}, expected a refusal (401)`);
          }
          seen.push(`${what}: HTTP ${response.status}`);
        }
        await expectBalance(before, 'after the unsigned bets');
        return seen.join(', ');
      },
    },
    {
      name: `amounts of one minor unit (${money(1)}) are exact`,
      movesMoney: true,
      run: async () => {
        const before = await balanceNow();
        const debited = okBalance(await wallet.bet(movement(1)), `a bet of ${money(1)}`);
        if (debited !== before - 1) {
          throw new CheckFailure(
            `a bet of ${money(1)} left ${money(debited)}, expected ${money(before - 1)}`,
          );
        }
        const credited = okBalance(await wallet.prize(movement(1)), `a prize of ${money(1)}`);
        if (credited !== before) {
          throw new CheckFailure(`a prize of ${money(1)} left ${money(credited)}, expected ${money(before)}`);
        }
        return `${money(before)} → ${money(debited)} → ${money(credited)}`;
      },
    },
  ];

  function okBalance(answer: WalletAnswer, what: string): number {
    if (answer.kind !== 'ok') throw new CheckFailure(`${what} got ${describe(answer)}`);
    return answer.balanceMinor;
  }

  function describe(answer: WalletAnswer): string {
    if (answer.kind === 'ok') return `200 balance ${money(answer.balanceMinor)}`;
    if (answer.kind === 'declined')
      return `declined HTTP ${answer.httpStatus} ${answer.code}: ${answer.message}`;
    return `no definite answer (${answer.reason})`;
  }
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (typeof options === 'string') return refuseUsage(options, USAGE);
  const write = (line: string) => process.stdout.write(`${line}\n`);
  write(`Wallet conformance check of ${options.url}`);
  write(`player "${options.credential}", currency ${options.currency}`);
  write('Checks marked [moves money] debit or credit this player: run this against a test account.');
  write('A conforming wallet ends at the balance it started with.');
  write('');
  const checks = buildChecks(options);
  let passed = 0;
  for (const check of checks) {
    const name = `${check.movesMoney ? '[moves money] ' : ''}${check.name}`;
    try {
      const detail = await check.run();
      passed++;
      write(`PASS  ${name} (${detail})`);
    } catch (error) {
      const reason =
        error instanceof CheckFailure ? error.message : `the check crashed: ${(error as Error).message}`;
      write(`FAIL  ${name}: ${reason}`);
    }
  }
  write('');
  write(
    passed === checks.length
      ? `All ${checks.length} checks passed.`
      : `${checks.length - passed} of ${checks.length} checks FAILED.`,
  );
  return passed === checks.length ? 0 : 1;
}

process.exitCode = await main();
