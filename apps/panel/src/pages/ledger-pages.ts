import { el, moneyOfMajor, saveFile, utcTime } from '@raspa/browser-kit';
import type {
  LedgerQuery,
  ListedTransaction,
  Round,
  RoundStatus,
  TransactionStatus,
  TransactionType,
} from '@raspa/server/wire';
import type { CsvFile, Page as ListPage } from '../api/api-client.ts';
import type { Catalogue } from '../i18n/en.ts';
import { field, formValues, select, table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { pagedList } from '../ui/pager.ts';
import { profilePicker } from '../ui/profile-picker.ts';
import { roundCurrency, statusBadge, transactionsCell } from '../ui/round-cells.ts';
import { shortId } from '../ui/short-id.ts';
import { heading } from './auth-pages.ts';
import { roundLink } from './round-link.ts';

const PAGE_SIZE = 20;
const TYPES: readonly TransactionType[] = ['bet', 'prize', 'rollback', 'deposit'];
const FILTERS = ['profileId', 'userId', 'roundId', 'type', 'status', 'dateStart', 'dateEnd'] as const;
/** The statuses each list's `status` filter takes (the API refuses any other with a 400). */
const ROUND_STATUSES: readonly RoundStatus[] = ['open', 'closed', 'pending', 'closing', 'declined', 'voided'];
const TRANSACTION_STATUSES: readonly TransactionStatus[] = ['completed', 'pending', 'declined', 'failed'];

/** The list's filters from the form (or the address): empty ones left out. */
export function ledgerFilters(values: Record<string, string>): LedgerQuery {
  const query: Record<string, string> = {};
  for (const name of FILTERS) if (values[name]) query[name] = values[name];
  return query as LedgerQuery;
}

/** The filters and one page of the list. */
export const ledgerQuery = (values: Record<string, string>, pageIndex: number): LedgerQuery => ({
  ...ledgerFilters(values),
  pageIndex,
  pageSize: PAGE_SIZE,
});

interface Ledger<T> {
  title: (t: Catalogue) => string;
  /** The list's rows as the service's CSV (format=csv) for the same filters. */
  csv: (context: PageContext, query: LedgerQuery) => Promise<CsvFile>;
  /** The filter by round id is only on the transaction list's form. */
  byRound: boolean;
  load: (context: PageContext, query: LedgerQuery) => Promise<ListPage<T>>;
  columns: (context: PageContext) => ReadonlyArray<readonly [string, (item: T) => Node | string | number]>;
  /** The options of the status filter: the list's statuses with their names in the page's language. */
  statuses: (t: Catalogue) => ReadonlyArray<readonly [string, string]>;
}

function ledgerPage<T>(ledger: Ledger<T>): Page {
  return (context) => {
    const { t } = context;
    const feedback = new Feedback(() => t);
    const list = el('div', { class: 'list' });
    const form = el('form', { class: 'filters card', role: 'search' });
    const initial = (name: string) => context.query.get(name) ?? '';
    const submit = el('button', { type: 'submit' }, [t.common.apply]);
    const exportButton = el('button', { type: 'button', class: 'secondary' }, [t.common.exportCsv]);
    exportButton.addEventListener('click', async () => {
      const file = await feedback.run(
        t.common.exporting,
        // The whole list matching the filters: the service streams every page of it.
        () => ledger.csv(context, ledgerFilters(formValues(form))),
        { button: exportButton },
      );
      if (!file) return;
      saveFile(file.name, file.text);
      feedback.say(t.common.exported(file.name));
    });

    const rows = pagedList({
      t,
      feedback,
      list,
      button: submit,
      label: ledger.title(t),
      pageIndex: Number(context.query.get('pageIndex')) || 1,
      fetch: (pageIndex) => ledger.load(context, ledgerQuery(formValues(form), pageIndex)),
      loaded: (_page, pageIndex) =>
        context.setQuery({ ...formValues(form), pageIndex: pageIndex > 1 ? String(pageIndex) : undefined }),
      render: (page) => table(ledger.title(t), ledger.columns(context), page.items, t.common.none),
    });

    void profilePicker(context, feedback, { optional: true }).then((chosen) => {
      if (!chosen) return;
      const text = (name: string, label: string) =>
        field(label, el('input', { name, autocomplete: 'off', value: initial(name), spellcheck: false }));
      const date = (name: string, label: string) =>
        field(label, el('input', { name, type: 'date', value: initial(name) }));
      form.replaceChildren(
        el('div', { class: 'grid' }, [
          field(t.common.profile, chosen.control),
          text('userId', t.rounds.player),
          ledger.byRound ? text('roundId', t.transactions.round) : null,
          field(
            ledger.byRound ? t.transactions.type : t.rounds.type,
            select(
              'type',
              [['', t.common.any], ...TYPES.map((type) => [type, t.rounds.types[type]] as const)],
              initial('type'),
            ),
          ),
          field(
            t.common.status,
            select('status', [['', t.common.any], ...ledger.statuses(t)], initial('status')),
          ),
          date('dateStart', t.common.dateStart),
          date('dateEnd', t.common.dateEnd),
        ]),
        el('div', { class: 'actions' }, [
          submit,
          exportButton,
          el(
            'button',
            {
              type: 'button',
              class: 'secondary',
              on: {
                click: () => {
                  form.reset();
                  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>(
                    'input, select',
                  ))
                    control.value = '';
                  void rows.first();
                },
              },
            },
            [t.common.clear],
          ),
        ]),
      );
      form.append(el('p', { class: 'hint' }, [t.common.exportHint]));
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        void rows.first();
      });
      void rows.load();
    });

    return el('section', {}, [heading(ledger.title(t)), form, ...feedback.nodes(), list]);
  };
}

export const roundsPage = ledgerPage<Round>({
  title: (t) => t.rounds.title,
  byRound: false,
  load: (context, query) => context.api.listRounds(query),
  csv: (context, query) => context.api.roundsCsv(query),
  statuses: (t) => ROUND_STATUSES.map((status) => [status, t.rounds.statuses[status]] as const),
  columns: (context) => {
    const { t, lang } = context;
    return [
      [t.rounds.id, (round) => roundLink(context, round._id)],
      [t.common.created, (round) => utcTime(round.createdAt, lang)],
      [t.players.credential, (round) => round.user.credential],
      [t.rounds.game, (round) => shortId(round.gameId)],
      [t.rounds.paid, (round) => moneyOfMajor(round.paidPrice, roundCurrency(round), lang)],
      [t.rounds.prize, (round) => moneyOfMajor(round.prize, roundCurrency(round), lang)],
      [t.common.status, (round) => statusBadge(round.status)],
      [t.rounds.transactions, (round) => transactionsCell(round, t, lang)],
      [t.rounds.ended, (round) => utcTime(round.endAt, lang)],
    ];
  },
});

export const transactionsPage = ledgerPage<ListedTransaction>({
  title: (t) => t.transactions.title,
  byRound: true,
  load: (context, query) => context.api.listTransactions(query),
  csv: (context, query) => context.api.transactionsCsv(query),
  statuses: (t) => TRANSACTION_STATUSES.map((status) => [status, t.transactions.statuses[status]] as const),
  columns: (context) => {
    const { t, lang } = context;
    return [
      [t.transactions.id, (transaction) => shortId(transaction._id)],
      [t.common.created, (transaction) => utcTime(transaction.createdAt, lang)],
      [t.transactions.type, (transaction) => t.rounds.types[transaction.type]],
      [t.transactions.amount, (transaction) => moneyOfMajor(transaction.amount, transaction.currency, lang)],
      [t.common.status, (transaction) => statusBadge(transaction.status)],
      [
        t.transactions.before,
        (transaction) => moneyOfMajor(transaction.balanceBefore, transaction.currency, lang),
      ],
      [
        t.transactions.after,
        (transaction) => moneyOfMajor(transaction.balanceAfter, transaction.currency, lang),
      ],
      [t.rounds.id, (transaction) => roundLink(context, transaction.roundId)],
      [t.rounds.player, (transaction) => shortId(transaction.userId)],
    ];
  },
});
