/**
 * Where a `balance` or `round` push goes (issue 23): to the player's sockets in this process only,
 * or also onto the channel between processes (the Socket.IO adapter: cluster IPC or PostgreSQL
 * NOTIFY), which every other process reads.
 *
 * A process that holds a socket of the player learns of every other process that holds one
 * (player-presence.ts), so its view is complete whatever made the change, at the player's socket or
 * away from it (the wallet retrier, the idle close): it crosses only when another holds one. A
 * process that holds none knows nothing of where the player is, so it crosses.
 */
export type PushRoute = 'local' | 'everywhere';

export interface PushSituation {
  /** Other processes share the pushes (an adapter between them). */
  otherProcesses: boolean;
  /** This process holds at least one socket of the player. */
  holdsSocket: boolean;
  /** Another process is known to hold one (meaningful only when this one holds one). */
  othersHoldSocket: boolean;
}

export function pushRoute(situation: PushSituation): PushRoute {
  if (!situation.otherProcesses) return 'local';
  return situation.holdsSocket && !situation.othersHoldSocket ? 'local' : 'everywhere';
}
