/**
 * Which code may write to a database (issue 36): the database records the oldest code generation
 * that may write to it (`write_generation.minimum`), and each build knows its own. A migration
 * that changes the rules of a round raises both (store/postgres/migrations/README.md says how).
 * Pure: the decision below is taken by each adapter at open, under its migration lock.
 */

/**
 * This build's generation: the rules of a round it writes by. Raised, with a migration that sets
 * `write_generation.minimum` to the same number, whenever a round's rules change so that an
 * instance of the build before would write something this one misreads (e.g. migration 010's
 * fixed prize id). Generation 1 is the first build with the guard; builds before it write no
 * heartbeat and cannot be seen (docs/operating.md, "Upgrading").
 */
export const CODE_GENERATION = 1;

/** How often a serving instance writes its heartbeat and reads the minimum back. */
export const HEARTBEAT_MS = 5_000;
/** A heartbeat older than this is an instance gone (crashed, or cut off from the database). */
export const HEARTBEAT_TTL_MS = 30_000;
/** How often an instance that waits for older ones looks again. */
export const WAIT_POLL_MS = 1_000;

export interface GenerationFacts {
  /** This build's generation. */
  code: number;
  /** The database's minimum; null on a database before the guard (empty, or older than it). */
  minimum: number | null;
  /** The generations of the other instances alive on the database (fresh heartbeats). */
  live: readonly number[];
}

export type GenerationDecision =
  /** Migrate (raising the minimum to `code` when its migrations do) and serve. */
  | { action: 'write' }
  /** Migrating now would let an older instance write beside rules it does not know: look again later. */
  | { action: 'wait'; reason: string }
  /** The database is newer than this code: it writes nothing, ever. */
  | { action: 'refuse'; reason: string };

/**
 * What an instance of generation `code` does on a database at `minimum` with `live` instances:
 * - older than the minimum: refuse (its rules are not the database's);
 * - newer than the minimum (its migrations raise it) while an instance that may still write is
 *   older than this code: wait until those are gone. Waiting, not refusing: a rolling restart then
 *   needs no second pass; the new instance starts serving by itself once the last old one stopped.
 * - otherwise write. An instance of the same generation never waits, so an upgrade that changes
 *   no rule rolls through one instance at a time without a gap.
 * Live instances below the minimum are refused themselves (they write nothing), so none holds
 * anything back.
 */
export function decideWriteGeneration({ code, minimum, live }: GenerationFacts): GenerationDecision {
  const floor = minimum ?? 0;
  if (code < floor)
    return {
      action: 'refuse',
      reason: `this build is generation ${code}; the database accepts writes from generation ${floor} on (a newer version migrated it)`,
    };
  if (code === floor) return { action: 'write' };
  const older = [...new Set(live.filter((g) => g >= floor && g < code))].sort((a, b) => a - b);
  if (older.length === 0) return { action: 'write' };
  return {
    action: 'wait',
    reason: `this build (generation ${code}) raises the database's generation from ${floor}; waiting until no instance of generation ${older.join(', ')} is alive`,
  };
}
