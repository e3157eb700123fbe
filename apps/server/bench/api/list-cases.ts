import type { SeededLedger } from '../seed-ledger.ts';

/**
 * The list cases of `bench:api` (api.ts) and of the PostgreSQL EXPLAIN of their statements
 * (postgres-explain.ts): one definition, so both measure the same requests.
 */
export interface ListCase {
  name: string;
  list: 'round' | 'transaction';
  /** The request's query parameters (docs/contract.md, the lists). */
  query: Record<string, string>;
}

/** A week in the middle of the seeded timeline, as whole UTC days. */
export function middleWeek(seeded: SeededLedger): { dateStart: string; dateEnd: string } {
  const first = Date.parse(`${seeded.firstDay}T00:00:00.000Z`);
  const last = Date.parse(`${seeded.lastDay}T00:00:00.000Z`);
  const start = first + Math.floor((last - first) / 2 / 86_400_000) * 86_400_000;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { dateStart: day(start), dateEnd: day(start + 6 * 86_400_000) };
}

/** The biggest and the smallest-but-one profile by rounds. */
export function bigAndSmall(seeded: SeededLedger) {
  const [big, small] = [...seeded.profiles].sort((a, b) => b.rounds - a.rounds);
  if (!big || !small) throw new Error('the seeded ledger has no profiles');
  return { big, small };
}

export function listCases(seeded: SeededLedger): ListCase[] {
  const { big, small } = bigAndSmall(seeded);
  const week = middleWeek(seeded);
  const busy = seeded.busyPlayer.id;
  // The deepest page the lists serve (pageIndex × pageSize within the first 10,000 records).
  const deep = { pageIndex: '500', pageSize: '20' };
  const cases: ListCase[] = [];
  for (const [list, prefix] of [
    ['transaction', 'tx'],
    ['round', 'round'],
  ] as const) {
    const typed = list === 'round' ? 'voided (rollback)' : 'rollbacks';
    const mixed = list === 'round' ? 'profile+prize+week' : 'profile+type+week';
    cases.push(
      { name: `${prefix}: first page`, list, query: {} },
      { name: `${prefix}: profile`, list, query: { profileId: big.id } },
      { name: `${prefix}: busiest user`, list, query: { userId: busy } },
      { name: `${prefix}: one week`, list, query: { ...week } },
      { name: `${prefix}: ${typed}`, list, query: { type: 'rollback' } },
      { name: `${prefix}: ${mixed}`, list, query: { profileId: small.id, type: 'prize', ...week } },
      { name: `${prefix}: deep page`, list, query: deep },
    );
  }
  return cases;
}

/** The request path of a list case. */
export const listPath = (item: ListCase): string => {
  const query = new URLSearchParams(item.query).toString();
  return `/v1/${item.list}${query ? `?${query}` : ''}`;
};
