import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockSize,
  type DrawOutcome,
  type HeldBlock,
  handOut,
  holdBlock,
  mayGiveBack,
  nextBlock,
  reopen,
  settle,
  spent,
} from './pool-blocks.ts';

describe('blockSize and nextBlock', () => {
  it('gives at least one index and at most the preferred size or what is left', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 2_000_000 }),
        fc.integer({ min: 1, max: 10_000 }),
        (left, preferred) => {
          const size = blockSize(left, preferred);
          if (left <= 0) expect(size).toBe(0);
          else {
            expect(size).toBeGreaterThanOrEqual(1);
            expect(size).toBeLessThanOrEqual(Math.min(preferred, left));
          }
        },
      ),
    );
  });

  it('tiles the pool: blocks one after the other, no gap, no overlap, ending at sampling', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer({ min: 1, max: 300 }),
        (sampling, preferred) => {
          let allocated = 0;
          for (let block = nextBlock(allocated, sampling, preferred); block; ) {
            expect(block.first).toBe(allocated);
            expect(block.end).toBeGreaterThan(block.first);
            allocated = block.end;
            block = nextBlock(allocated, sampling, preferred);
          }
          expect(allocated).toBe(sampling);
        },
      ),
    );
  });

  it('shrinks blocks near the end of the pool', () => {
    expect(blockSize(1_000_000, 100)).toBe(100);
    expect(blockSize(400, 100)).toBe(50);
    expect(blockSize(9, 100)).toBe(2);
    expect(blockSize(1, 100)).toBe(1);
  });
});

describe('a held block', () => {
  it('hands out each free index once, lowest first, and skips the ones already drawn', () => {
    const block = holdBlock(10, 15, [11, 13]);
    expect([handOut(block), handOut(block), handOut(block), handOut(block)]).toEqual([10, 12, 14, undefined]);
    expect(spent(block)).toBe(false);
    settle(block, 10, 'drawn');
    settle(block, 12, 'unused');
    settle(block, 14, 'unsure');
    settle(block, 14, 'unused'); // settled already: no effect
    expect(block.free).toEqual([12]);
    expect(handOut(block)).toBe(12);
    settle(block, 12, 'drawn');
    expect(spent(block)).toBe(true);
    // The database says 14 was not drawn after all: it is handed out again.
    expect(reopen(block, [14])).toBe(true);
    expect(handOut(block)).toBe(14);
  });

  it('gives back only a quiet end-of-pool block with indexes left and nothing out or unsure', () => {
    const at = { preferred: 100, idleMs: 1000, lastHandOutAt: 0, now: 1000 };
    const block = holdBlock(990, 1000, [990]);
    expect(mayGiveBack(block, at)).toBe(true);
    expect(mayGiveBack(block, { ...at, now: 999 })).toBe(false); // a buy a moment ago
    expect(mayGiveBack(holdBlock(0, 100), at)).toBe(false); // a full-size block: the pool is not ending
    expect(mayGiveBack(holdBlock(990, 1000, [990, 991, 992, 993, 994, 995, 996, 997, 998, 999]), at)).toBe(
      false,
    ); // nothing left to give
    const index = handOut(block) as number;
    expect(mayGiveBack(block, at)).toBe(false); // a buy holds one of its indexes
    settle(block, index, 'unsure');
    expect(mayGiveBack(block, at)).toBe(false); // the database has yet to say whether it was drawn
  });

  it('never gives back a block with an index out or unsure, whatever was handed out and settled', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.constantFrom<DrawOutcome | 'keep'>('drawn', 'unused', 'unsure', 'keep'), {
          maxLength: 40,
        }),
        (size, steps) => {
          const block = holdBlock(0, size);
          for (const step of steps) {
            const index = handOut(block);
            if (index !== undefined && step !== 'keep') settle(block, index, step);
          }
          const given = mayGiveBack(block, { preferred: 31, idleMs: 0, lastHandOutAt: 0, now: 0 });
          expect(given).toBe(block.out.size === 0 && block.unsure.size === 0 && block.free.length > 0);
        },
      ),
    );
  });

  /**
   * Several processes draw one pool through a model database: rounds unique on their index,
   * blocks with owners and leases, as the store keeps them. Processes hand out, settle (a unit
   * that fails may or may not have committed), crash (their blocks are left to expire), and take
   * blocks over. Then the survivors play on until the pool is done. Whatever happened: no index
   * is ever drawn twice, and the pool ends exactly when every index has been drawn once.
   */
  it('draws every index of the pool exactly once, whatever crashes and failed units happen', () => {
    type Step =
      | { kind: 'buy'; process: number }
      | { kind: 'finish'; process: number; outcome: DrawOutcome; committed: boolean }
      | { kind: 'crash'; process: number }
      | { kind: 'tick' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('buy' as const), process: fc.nat(2) }) },
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant('finish' as const),
          process: fc.nat(2),
          outcome: fc.constantFrom<DrawOutcome>('drawn', 'unused', 'unsure'),
          committed: fc.boolean(),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), process: fc.nat(2) }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'tick' as const }) },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(step, { maxLength: 300 }),
        (sampling, preferred, steps) => {
          const LEASE = 10;
          let now = 0;
          let allocated = 0;
          let ended = false;
          const drawnInDb = new Set<number>();
          const dbBlocks = new Map<number, { end: number; owner: number; expiresAt: number }>();
          const held: Array<Map<number, HeldBlock>> = [new Map(), new Map(), new Map()];
          const out: Array<Array<{ block: HeldBlock; index: number }>> = [[], [], []];
          let generation = [0, 1, 2];
          const undrawn = (first: number, end: number) => {
            const list: number[] = [];
            for (let i = first; i < end; i++) if (!drawnInDb.has(i)) list.push(i);
            return list;
          };

          /** The store's takeBlock: an expired block taken over, else the next block. */
          const take = (p: number): boolean => {
            for (const [first, block] of [...dbBlocks].sort((a, b) => a[0] - b[0])) {
              if (block.expiresAt <= now) {
                block.owner = generation[p] as number;
                block.expiresAt = now + LEASE;
                const drawn = [];
                for (let i = first; i < block.end; i++) if (drawnInDb.has(i)) drawn.push(i);
                held[p]?.set(first, holdBlock(first, block.end, drawn));
                return true;
              }
            }
            const next = nextBlock(allocated, sampling, preferred);
            if (!next) return false;
            allocated = next.end;
            dbBlocks.set(next.first, {
              end: next.end,
              owner: generation[p] as number,
              expiresAt: now + LEASE,
            });
            held[p]?.set(next.first, holdBlock(next.first, next.end));
            return true;
          };
          /** The drawer's close: the database says which indexes no round drew. */
          const close = (p: number, block: HeldBlock) => {
            const row = dbBlocks.get(block.first);
            if (!row || row.owner !== generation[p]) return void held[p]?.delete(block.first);
            if (reopen(block, undrawn(block.first, block.end))) return;
            dbBlocks.delete(block.first);
            held[p]?.delete(block.first);
            if (allocated === sampling && dbBlocks.size === 0) {
              expect(drawnInDb.size).toBe(sampling);
              ended = true;
            }
          };
          const buy = (p: number): boolean => {
            for (let tries = 0; tries < 3; tries++) {
              for (const block of held[p]?.values() ?? []) {
                const index = handOut(block);
                if (index !== undefined) {
                  out[p]?.push({ block, index });
                  return true;
                }
              }
              if (!take(p)) return false;
            }
            return false;
          };
          const finish = (p: number, outcome: DrawOutcome, committed: boolean) => {
            const reservation = out[p]?.shift();
            if (!reservation) return;
            const { block, index } = reservation;
            // The drawer checks the block is still this process's in the round's unit.
            const row = dbBlocks.get(block.first);
            const holds = row !== undefined && row.owner === generation[p];
            const commits = holds && (outcome === 'drawn' || (outcome === 'unsure' && committed));
            if (commits) {
              expect(drawnInDb.has(index)).toBe(false); // the unique index never refuses a round
              drawnInDb.add(index);
            }
            settle(block, index, holds ? outcome : 'unused');
            if (!holds) held[p]?.delete(block.first);
            else if (spent(block)) close(p, block);
          };

          for (const s of steps) {
            if (ended) break;
            if (s.kind === 'buy') buy(s.process);
            else if (s.kind === 'finish') finish(s.process, s.outcome, s.committed);
            else if (s.kind === 'crash') {
              held[s.process] = new Map();
              out[s.process] = [];
              generation = generation.map((g, i) => (i === s.process ? g + 3 : g));
            } else now += 4;
          }
          // Play on: every outstanding ticket ends drawn, then buys until the pool ends.
          for (let p = 0; p < 3; p++) while ((out[p]?.length ?? 0) > 0) finish(p, 'drawn', true);
          for (let rounds = 0; !ended && rounds < 10 * sampling + 100; rounds++) {
            const p = rounds % 3;
            if (buy(p)) finish(p, 'drawn', true);
            else now += LEASE; // every index is in others' blocks: wait for their leases
          }
          expect(ended).toBe(true);
          expect(drawnInDb.size).toBe(sampling);
        },
      ),
      { numRuns: 300 },
    );
  });
});
