// no-store: `pnpm wallet-check` against wallets the test serves
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  type OperatorOptions,
  type OperatorServer,
} from '../../../examples/operator/operator.mjs';
import { runCli } from './run-cli.ts';

const SECRET = 'conformance-secret-1234';

const running: OperatorServer[] = [];
afterAll(async () => {
  await Promise.all(
    running.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function operatorAt(options: OperatorOptions = {}) {
  const server = createOperator({ walletSecret: SECRET, log: () => {}, ...options });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet` };
}

/** Runs `pnpm wallet-check` as a real child process (the operator answers from this process). */
async function walletCheck(
  args: string[],
): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const { code, stdout, stderr } = await runCli('wallet-check', args);
  return { code, lines: stdout.split('\n'), stderr };
}

const results = (lines: string[]) => lines.filter((line) => /^(PASS|FAIL) {2}/.test(line));
const failures = (lines: string[]) => results(lines).filter((line) => line.startsWith('FAIL'));

describe.concurrent('pnpm wallet-check', () => {
  it('passes every check against the example operator and exits 0', async () => {
    const { url } = await operatorAt();
    const { code, lines, stderr } = await walletCheck(['--url', url, '--secret', SECRET]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(results(lines)).toHaveLength(13);
    expect(failures(lines)).toEqual([]);
    expect(lines).toContain('All 13 checks passed.');
    expect(lines.join('\n')).toContain('run this against a test account');
    expect(lines).toContain(
      'PASS  [moves money] a signed bet debits the amount (bet 1.25 BRL: 1000.00 BRL → 998.75 BRL)',
    );
    expect(lines).toContain(
      'PASS  [moves money] amounts of one minor unit (0.01 BRL) are exact (1000.00 BRL → 999.99 BRL → 1000.00 BRL)',
    );
    expect(lines.find((line) => line.includes('(a free card) credits the amount'))).toMatch(
      /^PASS {2}\[moves money\] a prize with promotionId and no bet before it \(a free card\) credits the amount \(prize 1\.25 BRL of promotion wallet-check-promotion-[0-9a-f]+: 1000\.00 BRL → 1001\.25 BRL\)$/,
    );
    expect(lines).toContain(
      'PASS  [moves money] a repeated free card prize gets the first answer and does not credit twice (balance still 1001.25 BRL, then 1000.00 BRL after a bet of 1.25 BRL)',
    );
  });

  it('passes in a currency without decimals, and leaves the balance where it started', async () => {
    const { url, server } = await operatorAt();
    const { code, lines } = await walletCheck([
      '--url',
      `${url}/`,
      '--secret',
      SECRET,
      '--currency',
      'JPY',
      '--credential',
      'qa-7',
    ]);
    expect(failures(lines)).toEqual([]);
    expect(code).toBe(0);
    expect(server.operator.balanceOf('qa-7', 'JPY')).toBe(1000);
  });

  it('fails the repeat checks of a wallet that is not idempotent, and exits 1', async () => {
    // Its rollbacks still re-credit a bet once, so the repeated rollback holds.
    const { url } = await operatorAt({ breaks: ['idempotency'] });
    const { code, lines } = await walletCheck(['--url', url, '--secret', SECRET]);
    expect(code).toBe(1);
    expect(failures(lines).map((line) => line.split(':')[0])).toEqual([
      'FAIL  [moves money] a repeated bet (same transactionId) gets the first answer and does not debit twice',
      'FAIL  [moves money] a repeated prize gets the first answer and does not credit twice',
      'FAIL  [moves money] a repeated free card prize gets the first answer and does not credit twice',
    ]);
    expect(lines).toContain('3 of 13 checks FAILED.');
  });

  it('fails the free card checks of a wallet that refuses a prize with promotionId, and exits 1', async () => {
    const { url, server } = await operatorAt({ breaks: ['promotion'] });
    const { code, lines } = await walletCheck(['--url', url, '--secret', SECRET, '--credential', 'qa-free']);
    expect(code).toBe(1);
    expect(failures(lines)).toEqual([
      'FAIL  [moves money] a prize with promotionId and no bet before it (a free card) credits the amount: the free card’s prize got declined HTTP 400 INVALID_REQUEST: Unknown field: promotionId.',
      'FAIL  [moves money] a repeated free card prize gets the first answer and does not credit twice: not run: the free card’s prize did not succeed',
    ]);
    expect(server.operator.balanceOf('qa-free', 'BRL')).toBe(1000);
  });

  it('fails the signature check of a wallet that does not verify x-signed-request, and exits 1', async () => {
    const { url } = await operatorAt({ breaks: ['signature'] });
    const { code, lines } = await walletCheck(['--url', url, '--secret', SECRET]);
    expect(code).toBe(1);
    expect(failures(lines)).toEqual([
      'FAIL  a bet with a wrong or missing x-signed-request is refused and moves no money: a wrong signature got HTTP 200, expected a refusal (401)',
    ]);
  });

  it('exits 2 with the usage on bad arguments', async () => {
    const { code, stderr } = await walletCheck(['--url', 'ftp://nope']);
    expect(code).toBe(2);
    expect(stderr).toContain('--url must be an http(s) URL');
    expect(stderr).toContain('usage: pnpm wallet-check');
  });
});
