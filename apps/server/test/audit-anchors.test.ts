import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyProof } from '@raspa/core/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOR_SETTLE_MS, MAX_ANCHOR_LEAVES, writeNextAnchor } from '../src/audit/anchor-writer.ts';
import { verifyStoredAudit } from '../src/audit/verify-records.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { connectPlayer, eventually, type GameSetup, newSession, setUpOperatorGame } from './play-fixtures.ts';
import { type CliRun, runCli } from './run-cli.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * docs/audit.md over rounds really played: anchors written after the fact, a round's proof that
 * verifies with the public key alone, verify-audit naming a changed record, a failure inside the
 * anchor's unit, and two writers of the same client's next anchor.
 */

let server: TestServer;
let operator: TestOperator;
let game: GameSetup;
let players = 0;
const sockets: Array<{ close(): void }> = [];

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({ env: LOCAL_INTEGRATION });
  game = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
  await operator?.close();
});

/** A round bought, revealed and paid: closed. */
async function playRound(): Promise<string> {
  const player = await connectPlayer(server.url, await newSession(server, game, `audit-${++players}`));
  sockets.push(player);
  const bought = await player.ask('buy');
  if (!bought.ok) throw new Error(JSON.stringify(bought));
  const roundId: string = bought.data.round.roundId;
  await player.ask('reveal', { roundId });
  await eventually(async () => (await server.deps.store.rounds.findRound(roundId))?.status === 'closed');
  return roundId;
}

const anchoring = () => {
  const job = server.running.anchoring;
  if (!job) throw new Error('no anchoring job');
  return job;
};
const settle = () => server.clock.advance(ANCHOR_SETTLE_MS + 1);
const proofOf = (roundId: string) => server.call('GET', `/v1/round/${roundId}/proof`, { token: game.tokens });
const verdict = async () => (await verifyStoredAudit(server.deps.store.auditAnchors)).verdict;

describe('audit anchors', () => {
  it('anchors ended rounds after the fact; a round’s proof verifies offline with the public key alone', async () => {
    const roundId = await playRound();
    const early = await proofOf(roundId);
    expect(early.status).toBe(404);
    expect(early.body.code).toBe('NOT_ANCHORED');

    settle();
    const written = await anchoring().runOnce();
    const clientId = (await server.deps.store.rounds.findRound(roundId))?.clientId;
    expect(written.map((record) => record.anchor.clientId)).toContain(clientId);
    expect(await anchoring().runOnce()).toEqual([]); // nothing new: no empty anchor

    const proof = await proofOf(roundId);
    expect(proof.status).toBe(200);
    const keys = await server.call('GET', '/v1/audit/key', { token: game.tokens });
    expect(keys.body.data.keys).toHaveLength(1);
    expect(verifyProof(proof.body.data, keys.body.data.keys)).toEqual({ ok: true });
    expect(JSON.parse(proof.body.data.leaf).round.id).toBe(roundId);
    // Another client's round is answered as an unknown one.
    const other = await server.newClient('Another operator');
    const theirs = await server.call('GET', `/v1/round/${roundId}/proof`, { token: other.tokens });
    const unknown = await server.call('GET', '/v1/round/no-such-round/proof', { token: other.tokens });
    expect([unknown.status, unknown.body.messages]).toEqual([404, ['round no-such-round was not found']]);
    expectAnsweredAsUnknown(theirs, unknown, { theirs: roundId, unknown: 'no-such-round' });

    const anchors = await server.call('GET', '/v1/audit/anchors?fromSeq=1&pageSize=10', {
      token: game.tokens,
    });
    expect(anchors.status).toBe(200);
    expect(anchors.body.data).toEqual([proof.body.data.anchor]);
    const bad = await server.call('GET', '/v1/audit/anchors?fromSeq=0', { token: game.tokens });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(await verdict()).toMatchObject({ ok: true });
  });

  it('verify-audit names a changed round and a changed wallet call, and holds again once undone', async () => {
    const roundId = await playRound();
    settle();
    await anchoring().runOnce();
    const { rounds } = server.deps.store;
    const round = await rounds.findRound(roundId);
    if (!round) throw new Error('no round');
    await rounds.updateRound(roundId, { prizeMinor: round.prizeMinor + 100 });
    expect(await verdict()).toMatchObject({
      ok: false,
      break: { reason: 'leaf-changed', record: `round ${roundId}` },
    });
    await rounds.updateRound(roundId, { prizeMinor: round.prizeMinor });
    expect(await verdict()).toMatchObject({ ok: true });

    const [bet] = await rounds.transactionsOfRound(roundId);
    if (!bet) throw new Error('no bet');
    await rounds.updateTransaction(bet.id, { amountMinor: bet.amountMinor - 1 });
    expect(await verdict()).toMatchObject({
      ok: false,
      break: { reason: 'leaf-changed', record: `round ${roundId}` },
    });
    await rounds.updateTransaction(bet.id, { amountMinor: bet.amountMinor });
    expect(await verdict()).toMatchObject({ ok: true });
  });

  it('a failure inside the anchor’s unit leaves no gap and no leaf twice', async () => {
    const roundId = await playRound();
    settle();
    const { auditAnchors } = server.deps.store;
    const clientId = (await server.deps.store.rounds.findRound(roundId))?.clientId ?? '';
    const before = (await auditAnchors.last(clientId))?.anchor.seq ?? 0;
    const writer = {
      store: server.deps.store,
      clock: server.clock,
      key:
        server.deps.auditKey ??
        (() => {
          throw new Error('no key');
        })(),
      settleMs: ANCHOR_SETTLE_MS,
      maxLeaves: MAX_ANCHOR_LEAVES,
    };
    await expect(
      writeNextAnchor(
        {
          ...writer,
          inUnit: async () => {
            throw new Error('crash inside the unit');
          },
        },
        clientId,
      ),
    ).rejects.toThrow('crash inside the unit');
    expect((await auditAnchors.last(clientId))?.anchor.seq ?? 0).toBe(before);
    expect((await proofOf(roundId)).body.code).toBe('NOT_ANCHORED');

    // Two writers at once (two instances): one anchor of the next seq, the other writes nothing.
    const results = await Promise.all([writeNextAnchor(writer, clientId), writeNextAnchor(writer, clientId)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await auditAnchors.last(clientId))?.anchor.seq).toBe(before + 1);
    expect((await proofOf(roundId)).status).toBe(200);
    expect(await verdict()).toMatchObject({ ok: true });
  });
});

/** A command-line tool of src/cli on this test's database (its SQLite file or DATABASE_URL). */
function cli(tool: string, args: string[]): Promise<CliRun> {
  const { DATA_DIR: _data, DATABASE_URL: _url, ...inherited } = process.env;
  return runCli(tool, args, {
    ...inherited,
    DATA_DIR: server.dataDir,
    ...(server.config.DATABASE_URL && { DATABASE_URL: server.config.DATABASE_URL }),
  });
}

describe('pnpm verify-audit and audit-export', () => {
  it('verifies the live database, an export and a proof with the public key alone, and names a break', async () => {
    const roundId = await playRound();
    settle();
    await anchoring().runOnce();
    const live = await cli('verify-audit', []);
    expect(live.stdout).toMatch(/^OK: \d+ anchors, \d+ leaves verified/);
    expect(live.code).toBe(0);

    const file = join(server.dataDir, 'audit-export.json');
    expect((await cli('audit-export', ['--out', file])).code).toBe(0);
    const key = server.deps.auditKey?.publicKey ?? '';
    expect((await cli('verify-audit', ['--file', file, '--key', key])).code).toBe(0);
    const tampered = readFileSync(file, 'utf8').replace(
      /\\"prizeMinor\\":(\d+)/,
      (_m, n) => `\\"prizeMinor\\":${Number(n) + 1}`,
    );
    writeFileSync(file, tampered);
    const broken = await cli('verify-audit', ['--file', file, '--key', key]);
    expect(broken.stdout).toMatch(/BREAK at anchor \d+: root: /);
    expect(broken.code).toBe(1);

    const proofFile = join(server.dataDir, 'proof.json');
    writeFileSync(proofFile, JSON.stringify((await proofOf(roundId)).body));
    const proof = await cli('verify-audit', ['--proof', proofFile, '--key', key]);
    expect(proof.stdout).toMatch(/^OK: the record is leaf \d+ of anchor \d+/);
    expect(proof.code).toBe(0);
  });
});
