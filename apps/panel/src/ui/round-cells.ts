import { el, moneyOfMajor } from '@raspa/browser-kit';
import type { Lang, Round } from '@raspa/server/wire';
import type { Catalogue } from '../i18n/en.ts';

/** A round's or transaction's status as a coloured badge (the word itself stays the API's). */
export const statusBadge = (status: string) => el('span', { class: `badge status-${status}` }, [status]);

/** The currency of a round in a list (its transactions carry it). */
export const roundCurrency = (round: Round) => round.transactions[0]?.currency ?? 'BRL';

/** A round's transactions in one cell: type, amount and status each. */
export function transactionsCell(round: Round, t: Catalogue, lang: Lang): HTMLElement {
  return el(
    'ul',
    { class: 'plain' },
    round.transactions.map((transaction) =>
      el('li', {}, [
        `${t.rounds.types[transaction.type]} ${moneyOfMajor(transaction.amount, transaction.currency, lang)} · `,
        statusBadge(transaction.status),
      ]),
    ),
  );
}
