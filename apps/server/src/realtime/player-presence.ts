/**
 * Which other processes hold a socket of a player, as far as this process needs to know: only for
 * the players it holds a socket of itself (push-route.ts). Pure: it says what to announce and
 * what to answer; the realtime layer sends it (play-socket.ts).
 *
 * The protocol, on the adapter's channel between processes:
 * - `here` when a process's first socket of a player joins, `gone` when its last one leaves;
 * - a process that holds the player answers a `here` with `also`, so the newcomer learns of it.
 * Each process registers its socket before it announces; so of two processes taking a player at
 * once, at least one reads the other's `here` while holding the player, records it and answers.
 * Each message carries its sender's counter, and an older word from a sender never overwrites a
 * newer one (PostgreSQL's NOTIFYs from two pool connections may arrive out of order).
 * A lost or stale word can only make pushes cross when they need not, except a lost `here` or
 * `also` (the channel failing), which leaves a tab without pushes until it reconnects: the same as
 * a push lost on the channel.
 */
import { z } from 'zod';

/** What crosses between processes (as JSON), read with this schema on arrival. */
export const presenceMessageSchema = z.object({
  kind: z.enum(['here', 'also', 'gone']),
  playerId: z.string(),
  /** The sender's name (random per process). */
  node: z.string(),
  /** The sender's counter: later messages of one sender carry higher ones. */
  seq: z.number().int(),
});
export type PresenceMessage = z.infer<typeof presenceMessageSchema>;
type PresenceKind = PresenceMessage['kind'];

interface Word {
  seq: number;
  holds: boolean;
}

export interface PlayerPresence {
  /** This process's first socket of the player joined: the `here` to announce. */
  joined(playerId: string): PresenceMessage;
  /** This process's last socket of the player left: the `gone` to announce; what it knew is dropped. */
  left(playerId: string): PresenceMessage;
  /**
   * A message from another process, with whether this one holds a socket of the player now: the
   * `also` to answer, if any.
   */
  receive(message: PresenceMessage, holdsSocket: boolean): PresenceMessage | undefined;
  /** Whether another process is known to hold a socket of the player. */
  othersHold(playerId: string): boolean;
  /** Players with something known of other processes (for tests and a bound on memory). */
  size(): number;
}

export function createPlayerPresence(node: string): PlayerPresence {
  const players = new Map<string, Map<string, Word>>();
  let seq = 0;
  const say = (kind: PresenceKind, playerId: string): PresenceMessage => ({
    kind,
    playerId,
    node,
    seq: ++seq,
  });
  return {
    joined: (playerId) => say('here', playerId),
    left(playerId) {
      players.delete(playerId);
      return say('gone', playerId);
    },
    receive(message, holdsSocket) {
      // Nothing to keep for a player this process holds no socket of: its pushes cross anyway.
      if (message.node === node || !holdsSocket) return undefined;
      let others = players.get(message.playerId);
      if (!others) {
        others = new Map();
        players.set(message.playerId, others);
      }
      const known = others.get(message.node);
      if (!known || known.seq < message.seq) {
        others.set(message.node, { seq: message.seq, holds: message.kind !== 'gone' });
      }
      return message.kind === 'here' ? say('also', message.playerId) : undefined;
    },
    othersHold(playerId) {
      for (const word of players.get(playerId)?.values() ?? []) if (word.holds) return true;
      return false;
    },
    size: () => players.size,
  };
}
