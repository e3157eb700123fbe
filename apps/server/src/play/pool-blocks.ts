/**
 * The arithmetic of ticket draws by blocks (docs/store.md, "Ticket draws by blocks"): no I/O.
 *
 * A process takes a block of a pool's draw indexes [first, end) from the pool's row in a short
 * unit, then hands the indexes out itself, one to each buy; the round that draws index i records
 * (pool, i), unique in the database. An index handed out comes back as drawn (its round
 * committed), unused (its round did not draw), or unsure (the unit failed in a way that may have
 * committed): only the database can tell those, when the block is closed.
 */

/** The size of the next block when `remaining` indexes of the pool are in no block yet. */
export function blockSize(remaining: number, preferred: number): number {
  if (remaining <= 0) return 0;
  // Near the pool's end blocks shrink (an eighth of what is left), so the last indexes are
  // spread over the processes that play instead of idling in one of them until its lease expires.
  return Math.max(1, Math.min(preferred, remaining, Math.ceil(remaining / 8)));
}

/** The next block of a pool whose indexes below `allocated` are in blocks already; null when none is left. */
export function nextBlock(
  allocated: number,
  sampling: number,
  preferred: number,
): { first: number; end: number } | null {
  const size = blockSize(sampling - allocated, preferred);
  return size === 0 ? null : { first: allocated, end: allocated + size };
}

/** A block as one process holds it. */
export interface HeldBlock {
  readonly first: number;
  readonly end: number;
  /** Indexes to hand out, the lowest last (taken with pop). */
  free: number[];
  /** Handed out, not settled yet. */
  out: Set<number>;
  /** Handed out to a unit that failed: drawn or not, the database will say at close. */
  unsure: Set<number>;
}

export type DrawOutcome = 'drawn' | 'unused' | 'unsure';

/** The indexes of [first, end) that are not in `drawn`, as a block to hand out. */
export function holdBlock(first: number, end: number, drawn: Iterable<number> = []): HeldBlock {
  const done = new Set(drawn);
  const free: number[] = [];
  for (let index = end - 1; index >= first; index--) if (!done.has(index)) free.push(index);
  return { first, end, free, out: new Set(), unsure: new Set() };
}

/** The next index to hand out, or undefined when none is free. */
export function handOut(block: HeldBlock): number | undefined {
  const index = block.free.pop();
  if (index !== undefined) block.out.add(index);
  return index;
}

/** Records what became of an index handed out; a second settle of the same index changes nothing. */
export function settle(block: HeldBlock, index: number, outcome: DrawOutcome): void {
  if (!block.out.delete(index)) return;
  if (outcome === 'unused') {
    block.free.push(index);
    block.free.sort((a, b) => b - a);
  } else if (outcome === 'unsure') block.unsure.add(index);
}

/** Nothing left to hand out and nothing out: time to ask the database whether every index was drawn. */
export const spent = (block: HeldBlock): boolean => block.free.length === 0 && block.out.size === 0;

/**
 * Whether a process gives a block back for another to take over at once: a block of the pool's
 * end (smaller than `preferred`: see blockSize), with indexes left, none out or unsure, and none
 * handed out for `idleMs`. Otherwise a buy elsewhere would wait out the block's lease while this
 * process, whose players stopped buying, sits on the pool's last tickets.
 */
export function mayGiveBack(
  block: HeldBlock,
  at: { preferred: number; idleMs: number; lastHandOutAt: number; now: number },
): boolean {
  return (
    block.end - block.first < at.preferred &&
    block.free.length > 0 &&
    block.out.size === 0 &&
    block.unsure.size === 0 &&
    at.now - at.lastHandOutAt >= at.idleMs
  );
}

/**
 * What the database answered at close: the indexes of the block no round drew. None: the block
 * is done. Some (unsure ones that did not commit): they are handed out again.
 */
export function reopen(block: HeldBlock, undrawn: readonly number[]): boolean {
  block.unsure.clear();
  const inBlock = undrawn.filter((index) => index >= block.first && index < block.end);
  block.free = [...new Set(inBlock)].sort((a, b) => b - a);
  return block.free.length > 0;
}
