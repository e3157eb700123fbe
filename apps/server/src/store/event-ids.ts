/**
 * The ids `outbox.insertForSubscribers` gave a round's events, in the order of their webhooks:
 * `id`, then `id.2`, `id.3`… (RETURNING promises no order).
 */
export function eventIdsInOrder(rows: readonly { id: string }[]): string[] {
  const rank = (id: string) => {
    const dot = id.lastIndexOf('.');
    return dot < 0 ? 1 : Number(id.slice(dot + 1));
  };
  return rows.map((row) => row.id).sort((a, b) => rank(a) - rank(b));
}
