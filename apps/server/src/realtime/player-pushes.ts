import { PLAY_EVENTS } from '@raspa/core';
import type { Namespace, Socket } from 'socket.io';
import type { PlayNotifier } from '../play/play-service.ts';
import { createPlayerPresence, type PresenceMessage, presenceMessageSchema } from './player-presence.ts';
import { pushRoute } from './push-route.ts';

const playerRoom = (playerId: string) => `player:${playerId}`;
/** The server-side event that carries presence between processes (player-presence.ts). */
const PRESENCE_EVENT = 'raspa:presence';

/**
 * The `balance` and `round` pushes to a player's pages on the play namespace: each goes to the
 * player's sockets in this process, and crosses to the other processes (through the adapter) only
 * where push-route.ts says, from what player-presence.ts knows of them (docs/store.md, "Pushes
 * between processes").
 */
export function createPlayerPushes(
  play: Namespace,
  options: { otherProcesses: boolean; node: string },
): { add(socket: Socket, playerId: string): void; notifier: PlayNotifier } {
  const { otherProcesses } = options;
  const presence = createPlayerPresence(options.node);
  const holdsSocket = (playerId: string) => (play.adapter.rooms.get(playerRoom(playerId))?.size ?? 0) > 0;
  const announce = (message: PresenceMessage) => {
    if (otherProcesses) play.serverSideEmit(PRESENCE_EVENT, message);
  };
  play.on(PRESENCE_EVENT, (raw: unknown) => {
    const message = presenceMessageSchema.safeParse(raw);
    if (!message.success) return;
    const answer = presence.receive(message.data, holdsSocket(message.data.playerId));
    if (answer) announce(answer);
  });

  const toPlayer = (playerId: string) => {
    const route = pushRoute({
      otherProcesses,
      holdsSocket: holdsSocket(playerId),
      othersHoldSocket: presence.othersHold(playerId),
    });
    return (route === 'local' ? play.local : play).to(playerRoom(playerId));
  };
  return {
    add(socket, playerId) {
      // Joined first, announced after: see player-presence.ts for why the order matters.
      void socket.join(playerRoom(playerId));
      if (play.adapter.rooms.get(playerRoom(playerId))?.size === 1) announce(presence.joined(playerId));
      // Socket.IO has taken the socket out of its rooms by now.
      socket.on('disconnect', () => {
        if (!holdsSocket(playerId)) announce(presence.left(playerId));
      });
    },
    notifier: {
      balance: (playerId, balance) => void toPlayer(playerId).emit(PLAY_EVENTS.balance, { balance }),
      round: (playerId, round) => void toPlayer(playerId).emit(PLAY_EVENTS.round, round),
    },
  };
}
