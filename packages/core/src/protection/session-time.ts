/**
 * The session time limit (CONTRACT §13): past `sessionMinutes` of a session, no more buys. A card bought
 * before the limit may still be revealed; only the next purchase is refused. Times in epoch ms.
 */
export function sessionTimeEndsAt(sessionStartedAt: number, sessionMinutes: number | null): number | null {
  return sessionMinutes === null ? null : sessionStartedAt + sessionMinutes * 60_000;
}
