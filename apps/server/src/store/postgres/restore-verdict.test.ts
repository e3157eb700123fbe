import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FoldedTable, type FoldedTableFacts, restoreVerdict } from './restore-verdict.ts';

const TABLES: FoldedTable[] = ['rounds', 'round_types', 'transactions'];
const xid = fc.bigInt({ min: 3n, max: 2n ** 40n });

/**
 * A next id and facts of the three tables: each watermark up to `markMax(next)`, each newest id up
 * to `rowMax(next)`, either one possibly absent.
 */
const historyOf = (markMax: (next: bigint) => bigint, rowMax: (next: bigint) => bigint) =>
  xid.chain((next) =>
    fc.tuple(
      fc.constant(next),
      fc
        .array(
          fc.tuple(
            fc.option(fc.bigInt({ min: 0n, max: markMax(next) })),
            fc.option(fc.bigInt({ min: 0n, max: rowMax(next) })),
          ),
          { minLength: TABLES.length, maxLength: TABLES.length },
        )
        .map((pairs) =>
          pairs.map(
            ([watermark, newest], i): FoldedTableFacts => ({
              table: TABLES[i] as FoldedTable,
              watermark,
              newest,
            }),
          ),
        ),
    ),
  );

describe('restoreVerdict', () => {
  it('finds nothing in a database whose ids this cluster handed out: watermarks at or below the next id, rows below it', () => {
    fc.assert(
      fc.property(
        historyOf(
          (next) => next,
          (next) => next - 1n,
        ),
        ([next, facts]) => {
          expect(restoreVerdict(next, facts)).toEqual({ restored: false });
        },
      ),
    );
  });

  it('finds a restore by a watermark past the next id or a row at or past it, and re-stamps exactly the tables with such rows', () => {
    fc.assert(
      fc.property(
        historyOf(
          (next) => 2n * next,
          (next) => 2n * next,
        ),
        ([next, facts]) => {
          const verdict = restoreVerdict(next, facts);
          const ahead = facts.filter((f) => f.newest !== null && f.newest >= next).map((f) => f.table);
          const marked = facts.some((f) => f.watermark !== null && f.watermark > next);
          if (ahead.length === 0 && !marked) expect(verdict).toEqual({ restored: false });
          else expect(verdict).toMatchObject({ restored: true, restamp: ahead });
        },
      ),
    );
  });

  it('says what showed it: a dump of a cluster at id 50,000 restored where the next id is 900', () => {
    const verdict = restoreVerdict(900n, [
      { table: 'rounds', watermark: 49_990n, newest: 50_001n },
      { table: 'round_types', watermark: 49_990n, newest: 700n },
      { table: 'transactions', watermark: null, newest: null },
    ]);
    expect(verdict).toEqual({
      restored: true,
      evidence: [
        "rounds: folded up to transaction 49990, past this cluster's next id 900",
        'rounds: a row written by transaction 50001, not yet handed out here (next 900)',
        "round_types: folded up to transaction 49990, past this cluster's next id 900",
      ],
      restamp: ['rounds'],
    });
  });
});
