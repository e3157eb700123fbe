/**
 * The tamper-evident record's rows (issue 37, docs/audit.md): anchors, the public keys that signed
 * them, the anchoring lease, and the reads that gather a client's leaves from the rounds and the
 * audit log by ranges of their keys. Written by the anchoring job only, never by a round's unit.
 */
import type { Anchor } from '@raspa/core/audit';
import type { Exec } from '../dialect/exec.ts';
import { selectList, statement } from '../dialect/statement.ts';
import { ROUND_FIELDS, TRANSACTION_FIELDS } from '../ledger-columns.ts';
import type { AuditRecord, RoundRecord, TransactionRecord } from '../records.ts';
import { leaseStatements } from './lease-statements.ts';

/** A position in a source's order: (created_at, id) of a round, (at, id) of an audit entry. */
export interface LeafMark {
  at: string;
  id: string;
}

/** Before every record: where a client's first anchor starts. */
export const START_MARK: LeafMark = { at: '', id: '' };

/** An anchor as stored: the signed fields, where its leaves end in each source, and what it signed. */
export interface AuditAnchorRecord {
  anchor: Anchor;
  roundMark: LeafMark;
  entryMark: LeafMark;
  /** [label, hex leaf hash] of each leaf as signed. */
  leaves: [string, string][];
}

export interface AuditKeyRecord {
  keyId: string;
  publicKey: string;
  since: string;
}

/** A range (after, upTo] of a client's records in one source's order. */
export interface LeafRange {
  clientId: string;
  after: LeafMark;
  upTo: LeafMark;
  limit: number;
}

export interface AuditAnchorsRepo {
  /** Adds the client's anchor `seq`; false (nothing written) when that seq exists already. */
  insert(record: AuditAnchorRecord): Promise<boolean>;
  last(clientId: string): Promise<AuditAnchorRecord | undefined>;
  bySeq(clientId: string, seq: number): Promise<AuditAnchorRecord | undefined>;
  /** The client's anchors from `fromSeq` on, in seq order. */
  page(clientId: string, fromSeq: number, limit: number): Promise<AuditAnchorRecord[]>;
  /** The anchor whose round range holds a round of this key, if one is written. */
  holdingRound(clientId: string, round: LeafMark): Promise<AuditAnchorRecord | undefined>;
  /** Every round of the range whatever its status, in (created_at, id) order. */
  rounds(range: LeafRange): Promise<RoundRecord[]>;
  /** The wallet calls of the rounds of the range, in round order, then (created_at, id). */
  roundCalls(range: Omit<LeafRange, 'limit'>): Promise<TransactionRecord[]>;
  entries(range: LeafRange): Promise<AuditRecord[]>;
  clientIds(): Promise<string[]>;
  /** Records a public key (once: a known key keeps its first `since`). */
  addKey(key: AuditKeyRecord): Promise<void>;
  keys(): Promise<AuditKeyRecord[]>;
  /** Takes or renews the client's anchoring lease until `until`: true when `owner` holds it now. */
  claim(clientId: string, owner: string, now: string, until: string): Promise<boolean>;
  release(clientId: string, owner: string): Promise<void>;
}

/** An anchor as stored: the signed anchor and the marks of the leaves it covers. */
interface AnchorRow extends Anchor {
  roundMarkAt: string;
  roundMarkId: string;
  entryMarkAt: string;
  entryMarkId: string;
  leaves: string;
}

const ANCHOR_COLUMNS = `client_id AS "clientId", seq, count, root, previous, at, key_id AS "keyId", signature,
  round_mark_at AS "roundMarkAt", round_mark_id AS "roundMarkId", entry_mark_at AS "entryMarkAt",
  entry_mark_id AS "entryMarkId", leaves`;

const insertAnchor = statement<AnchorRow>(
  `INSERT INTO audit_anchors (client_id, seq, count, root, previous, at, key_id, signature, round_mark_at,
     round_mark_id, entry_mark_at, entry_mark_id, leaves)
   VALUES (:clientId, :seq, :count, :root, :previous, :at, :keyId, :signature, :roundMarkAt, :roundMarkId,
     :entryMarkAt, :entryMarkId, :leaves)
   ON CONFLICT (client_id, seq) DO NOTHING`,
);
const lastAnchor = statement<{ clientId: string }, AnchorRow>(
  `SELECT ${ANCHOR_COLUMNS} FROM audit_anchors WHERE client_id = :clientId ORDER BY seq DESC LIMIT 1`,
);
const anchorBySeq = statement<{ clientId: string; seq: number }, AnchorRow>(
  `SELECT ${ANCHOR_COLUMNS} FROM audit_anchors WHERE client_id = :clientId AND seq = :seq`,
);
const anchorPage = statement<{ clientId: string; fromSeq: number; limit: number }, AnchorRow>(
  `SELECT ${ANCHOR_COLUMNS} FROM audit_anchors WHERE client_id = :clientId AND seq >= :fromSeq
   ORDER BY seq LIMIT :limit`,
);
const holdingRound = statement<{ clientId: string; at: string; id: string }, AnchorRow>(
  `SELECT ${ANCHOR_COLUMNS} FROM audit_anchors WHERE client_id = :clientId
     AND (round_mark_at > :at OR (round_mark_at = :at AND round_mark_id >= :id))
   ORDER BY seq LIMIT 1`,
);
type RangeParams = { clientId: string; afterAt: string; afterId: string; toAt: string; toId: string };
const IN_ROUND_RANGE = `r.client_id = :clientId
  AND (r.created_at > :afterAt OR (r.created_at = :afterAt AND r.id > :afterId))
  AND (r.created_at < :toAt OR (r.created_at = :toAt AND r.id <= :toId))`;
const roundsInRange = statement<RangeParams & { limit: number }, RoundRecord>(
  `SELECT ${selectList(ROUND_FIELDS, 'r.')} FROM rounds r WHERE ${IN_ROUND_RANGE}
   ORDER BY r.created_at, r.id LIMIT :limit`,
);
const callsInRange = statement<RangeParams, TransactionRecord>(
  `SELECT ${selectList(TRANSACTION_FIELDS, 't.')} FROM rounds r JOIN transactions t ON t.round_id = r.id
   WHERE ${IN_ROUND_RANGE} ORDER BY r.created_at, r.id, t.created_at, t.id`,
);
const entriesInRange = statement<RangeParams & { limit: number }, AuditRecord>(
  `SELECT id, client_id AS "clientId", actor, operation, target_id AS "targetId", ip, at FROM audit_log
   WHERE client_id = :clientId
     AND (at > :afterAt OR (at = :afterAt AND id > :afterId))
     AND (at < :toAt OR (at = :toAt AND id <= :toId))
   ORDER BY at, id LIMIT :limit`,
);
const clientIds = statement<Record<string, never>, { id: string }>('SELECT id FROM api_clients ORDER BY id');
const addKey = statement<AuditKeyRecord>(
  `INSERT INTO audit_keys (key_id, public_key, since) VALUES (:keyId, :publicKey, :since)
   ON CONFLICT (key_id) DO NOTHING`,
);
const keys = statement<Record<string, never>, AuditKeyRecord>(
  'SELECT key_id AS "keyId", public_key AS "publicKey", since FROM audit_keys ORDER BY since, key_id',
);
const anchorLeases = leaseStatements({ table: 'audit_leases', key: 'client_id' });

function fromRow(row: AnchorRow): AuditAnchorRecord {
  const { roundMarkAt, roundMarkId, entryMarkAt, entryMarkId, leaves, ...anchor } = row;
  return {
    anchor,
    roundMark: { at: roundMarkAt, id: roundMarkId },
    entryMark: { at: entryMarkAt, id: entryMarkId },
    leaves: JSON.parse(leaves) as [string, string][],
  };
}

const rangeParams = ({ clientId, after, upTo }: Omit<LeafRange, 'limit'>): RangeParams => ({
  clientId,
  afterAt: after.at,
  afterId: after.id,
  toAt: upTo.at,
  toId: upTo.id,
});

export function createAuditAnchorsRepo(x: Exec): AuditAnchorsRepo {
  const one = (row: AnchorRow | undefined) => row && fromRow(row);
  return {
    insert: async ({ anchor, roundMark, entryMark, leaves }) =>
      (await x.run(insertAnchor, {
        ...anchor,
        roundMarkAt: roundMark.at,
        roundMarkId: roundMark.id,
        entryMarkAt: entryMark.at,
        entryMarkId: entryMark.id,
        leaves: JSON.stringify(leaves),
      })) === 1,
    last: async (clientId) => one(await x.first(lastAnchor, { clientId })),
    bySeq: async (clientId, seq) => one(await x.first(anchorBySeq, { clientId, seq })),
    page: async (clientId, fromSeq, limit) =>
      (await x.all(anchorPage, { clientId, fromSeq, limit })).map(fromRow),
    holdingRound: async (clientId, round) => one(await x.first(holdingRound, { clientId, ...round })),
    rounds: async (range) => x.all(roundsInRange, { ...rangeParams(range), limit: range.limit }),
    roundCalls: async (range) => x.all(callsInRange, rangeParams(range)),
    entries: async (range) => x.all(entriesInRange, { ...rangeParams(range), limit: range.limit }),
    clientIds: async () => (await x.all(clientIds, {})).map((row) => row.id),
    addKey: async (key) => void (await x.run(addKey, key)),
    keys: async () => x.all(keys, {}),
    ...anchorLeases(x),
  };
}
