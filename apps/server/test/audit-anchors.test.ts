import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signingKeyOf, verifyProof } from '@raspa/core/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOR_SETTLE_MS, MAX_ANCHOR_LEAVES, writeNextAnchor } from '../src/audit/anchor-writer.ts';
import { verifyStoredAudit } from '../src/audit/verify-records.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { connectPlayer, eventually, type GameSetup, newSession, setUpOperatorGame } from './play-fixtures.ts';
import { rawSql } from './raw-sql.ts';
import { CLI_TESTS_HANG_BOUND, type CliRun, runCli } from './run-cli.ts';
import { type ReceivedEvent, startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * docs/audit.md over rounds really played: anchors written after the fact, a round's proof that
 * verifies with the public key alone, verify-audit naming each kind of tampering done with plain
 * SQL, a failure inside the anchor's unit, two writers of the same client's next anchor, and the
 * `anchor` webhook event.
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

describe('audit anchors', CLI_TESTS_HANG_BOUND, () => {
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

  it('verify-audit names a removed entry, a changed entry, entries out of order, an inserted round and a changed anchor row, and holds again once each is undone', async () => {
    const roundId = await playRound();
    settle();
    await anchoring().runOnce();
    const round = await server.deps.store.rounds.findRound(roundId);
    if (!round) throw new Error('no round');
    const anchored = await server.deps.store.auditAnchors.last(round.clientId);
    if (!anchored) throw new Error('no anchor');
    const sql = await rawSql(server);
    try {
      // Someone with database access, not the service: plain SQL beside it.
      const [entry, next] = await sql.all<Record<string, string | null>>(
        'SELECT id, client_id, actor, operation, target_id, ip, at FROM audit_log WHERE client_id = ? ORDER BY at, id LIMIT 2',
        [round.clientId],
      );
      if (!entry || !next) throw new Error('no audit entries');
      const entryId = entry.id;
      await sql.run('DELETE FROM audit_log WHERE id = ?', [entryId]);
      expect(await verdict()).toMatchObject({
        ok: false,
        break: { reason: 'leaf-removed', record: `entry ${entryId}` },
      });
      const removed = await cli('verify-audit', []);
      expect(removed.stdout).toContain(`, entry ${entryId}: leaf-removed: `);
      expect(removed.code).toBe(1);
      await sql.run(
        'INSERT INTO audit_log (id, client_id, actor, operation, target_id, ip, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [entryId, entry.client_id, entry.actor, entry.operation, entry.target_id, entry.ip, entry.at],
      );
      expect(await verdict()).toMatchObject({ ok: true });

      await sql.run('UPDATE audit_log SET operation = ? WHERE id = ?', ['profile.delete', entryId]);
      expect(await verdict()).toMatchObject({
        ok: false,
        break: { reason: 'leaf-changed', record: `entry ${entryId}` },
      });
      await sql.run('UPDATE audit_log SET operation = ? WHERE id = ?', [entry.operation, entryId]);
      expect(await verdict()).toMatchObject({ ok: true });

      // The client's second entry moved a millisecond before its first (both in its first anchor):
      // the records are those signed, their order is not.
      const setAt = (at: string | null) => sql.run('UPDATE audit_log SET at = ? WHERE id = ?', [at, next.id]);
      await setAt(new Date(Date.parse(entry.at ?? '') - 1).toISOString());
      expect(await verdict()).toMatchObject({ ok: false, break: { reason: 'leaf-reordered' } });
      await setAt(next.at ?? null);
      expect(await verdict()).toMatchObject({ ok: true });

      // A round written into an anchored range afterwards: same time, an id just before the round's.
      const forged = roundId.slice(0, -1);
      await server.deps.store.rounds.insertRound({
        ...round,
        id: forged,
        poolId: null,
        drawIndex: null,
        prizeTransactionId: null,
      });
      expect(await verdict()).toMatchObject({
        ok: false,
        break: { reason: 'leaf-inserted', record: `round ${forged}` },
      });
      await sql.run('DELETE FROM rounds WHERE id = ?', [forged]);
      expect(await verdict()).toMatchObject({ ok: true });

      // The anchor's row: a signed field, then the leaf hashes kept beside it (not signed).
      const { seq, root } = anchored.anchor;
      const flip = (hex: string) => `${hex.startsWith('0') ? '1' : '0'}${hex.slice(1)}`;
      const setColumn = (column: 'root' | 'leaves', value: string) =>
        sql.run(`UPDATE audit_anchors SET ${column} = ? WHERE client_id = ? AND seq = ?`, [
          value,
          round.clientId,
          seq,
        ]);
      await setColumn('root', flip(root));
      expect(await verdict()).toMatchObject({
        ok: false,
        break: { reason: 'signature', anchorSeq: seq, record: null },
      });
      await setColumn('root', root);
      expect(await verdict()).toMatchObject({ ok: true });
      const kept = anchored.leaves;
      await setColumn(
        'leaves',
        JSON.stringify(kept.map(([label, hash], i) => [label, i === 0 ? flip(hash) : hash])),
      );
      expect(await verdict()).toMatchObject({
        ok: false,
        break: { reason: 'recorded', anchorSeq: seq, record: null },
      });
      await setColumn('leaves', JSON.stringify(kept));
      expect(await verdict()).toMatchObject({ ok: true });
    } finally {
      await sql.close();
    }
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

  it('sends each anchor, signed, to the webhooks that list `anchor`, single and batch, and to no other', async () => {
    // Two more webhooks to the same receiver under other spellings of its address (distinct URLs).
    const hooks = [
      { url: operator.webhookUrl.replace('127.0.0.1', 'localhost'), token: randomUUID(), batch: false },
      { url: operator.webhookUrl.replace('127.0.0.1', 'localhost.'), token: randomUUID(), batch: true },
    ];
    const ids: string[] = [];
    for (const hook of hooks) {
      const created = await server.call('POST', '/v1/webhook', {
        token: game.tokens,
        body: {
          url: hook.url,
          eventTriggers: ['anchor'],
          signatureToken: hook.token,
          ...(hook.batch && { delivery: { mode: 'batch' } }),
        },
      });
      expect(created.status).toBe(201);
      ids.push(created.body.data.webhookId);
    }
    const roundId = await playRound();
    settle();
    const clientId = (await server.deps.store.rounds.findRound(roundId))?.clientId;
    const anchor = (await anchoring().runOnce()).find(
      (record) => record.anchor.clientId === clientId,
    )?.anchor;
    expect(anchor).toBeDefined();

    // Queued in the anchor's own unit: for the two subscribers only, not the round events' webhook.
    const sql = await rawSql(server);
    try {
      const queued = await sql.all<{ webhook_id: string }>(
        "SELECT webhook_id FROM webhook_events WHERE event_type = 'anchor' AND round_id IS NULL",
      );
      expect(queued.map((row) => row.webhook_id).sort()).toEqual([...ids].sort());
    } finally {
      await sql.close();
    }
    const received = () => operator.events.filter((event) => event.event === 'anchor');
    await eventually(() => received().length === 2);
    const signedBy = (event: ReceivedEvent) =>
      hooks.find((hook) => {
        const { headers, raw } = event;
        const mac = createHmac('sha256', Buffer.from(hook.token, 'utf8'))
          .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${raw}`)
          .digest('base64');
        return headers['webhook-signature'] === `v1,${mac}`;
      });
    expect(received().map((event) => event.payload)).toEqual([anchor, anchor]);
    expect(
      received()
        .map((event) => [signedBy(event)?.url, event.batchId !== undefined])
        .sort(),
    ).toEqual(hooks.map((hook) => [hook.url, hook.batch]).sort());
    // The delivery log shows the anchor as the event's payload.
    const logged = await eventually(async () => {
      const log = await server.call('GET', `/v1/webhook/${ids[0]}`, { token: game.tokens });
      return log.body.data?.find(
        (row: { eventType: string; success: boolean }) => row.eventType === 'anchor' && row.success,
      );
    });
    expect(logged.payload).toEqual(anchor);
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

describe('pnpm verify-audit and audit-export', CLI_TESTS_HANG_BOUND, () => {
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
    // Another key than the one that signed: nothing verifies.
    const otherKey = signingKeyOf(generateKeyPairSync('ed25519').privateKey).publicKey;
    const wrongKey = await cli('verify-audit', ['--file', file, '--key', otherKey]);
    expect(wrongKey.stdout).toMatch(/BREAK at anchor \d+: /);
    expect(wrongKey.code).toBe(1);
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
