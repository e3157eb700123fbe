import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPlayerPresence, type PlayerPresence, type PresenceMessage } from './player-presence.ts';

const NODES = ['a', 'b', 'c'] as const;
const PLAYER = 'p1';

/**
 * Processes that take and drop sockets of one player while their presence messages travel, each
 * broadcast to every other process, delivered in the order `pick` chooses: any order, or in each
 * sender's order to each receiver (`fifo`).
 */
function simulate(steps: { toggle?: number; pick?: number }[], fifo: boolean) {
  const tables = new Map<string, PlayerPresence>(NODES.map((n) => [n, createPlayerPresence(n)]));
  const holds = new Map<string, boolean>(NODES.map((n) => [n, false]));
  const inFlight: { to: string; message: PresenceMessage }[] = [];
  const broadcast = (message: PresenceMessage) => {
    for (const to of NODES) if (to !== message.node) inFlight.push({ to, message });
  };
  const deliver = (index: number) => {
    let i = index;
    if (fifo) {
      // The oldest message between the same two processes goes first.
      const chosen = inFlight[index];
      i = inFlight.findIndex((m) => m.to === chosen?.to && m.message.node === chosen?.message.node);
    }
    const [item] = inFlight.splice(i, 1);
    if (!item) return;
    const answer = tables.get(item.to)?.receive(item.message, holds.get(item.to) ?? false);
    if (answer) broadcast(answer);
  };
  for (const step of steps) {
    if (step.toggle !== undefined) {
      const node = NODES[step.toggle % NODES.length] as string;
      const table = tables.get(node) as PlayerPresence;
      // Registered before announced, as play-socket.ts does.
      const now = !holds.get(node);
      holds.set(node, now);
      broadcast(now ? table.joined(PLAYER) : table.left(PLAYER));
    } else if (inFlight.length > 0) deliver((step.pick ?? 0) % inFlight.length);
  }
  // The rest arrives, last sent first where the order is free.
  while (inFlight.length > 0) deliver(fifo ? 0 : inFlight.length - 1);
  return NODES.map((node) => ({
    holds: holds.get(node) ?? false,
    othersHoldSocket: NODES.some((other) => other !== node && holds.get(other)),
    knows: tables.get(node)?.othersHold(PLAYER) ?? false,
  }));
}

const steps = fc.array(fc.oneof(fc.record({ toggle: fc.nat(2) }), fc.record({ pick: fc.nat(50) })), {
  maxLength: 40,
});

describe('which other processes hold a socket of a player', () => {
  it('a process that holds one knows of every other that does, once the messages arrive, in any order', () => {
    fc.assert(
      fc.property(steps, (list) => {
        for (const node of simulate(list, false))
          if (node.holds && node.othersHoldSocket) expect(node.knows).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('and knows exactly when each sender’s messages arrive in their order', () => {
    fc.assert(
      fc.property(steps, (list) => {
        for (const node of simulate(list, true))
          if (node.holds) expect(node.knows).toBe(node.othersHoldSocket);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers a newcomer only while it holds the player, and keeps nothing of players it does not hold', () => {
    const a = createPlayerPresence('a');
    const b = createPlayerPresence('b');
    const here = b.joined(PLAYER);
    expect(a.receive(here, false)).toBeUndefined();
    expect(a.size()).toBe(0);
    expect(a.receive(here, true)).toMatchObject({ kind: 'also', playerId: PLAYER, node: 'a' });
    expect(a.othersHold(PLAYER)).toBe(true);
    // An older word from b never overwrites a newer one.
    const gone = b.left(PLAYER);
    expect(a.receive(gone, true)).toBeUndefined();
    expect(a.receive(here, true)?.kind).toBe('also');
    expect(a.othersHold(PLAYER)).toBe(false);
    // Its own last socket gone, a process forgets the player.
    a.left(PLAYER);
    expect(a.size()).toBe(0);
    // Its own messages, echoed back, change nothing.
    expect(a.receive(a.joined(PLAYER), true)).toBeUndefined();
  });
});
