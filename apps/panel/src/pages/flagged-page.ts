import { el, moneyOfMajor, utcTime } from '@raspa/browser-kit';
import type { Round } from '@raspa/server/wire';
import { table } from '../ui/blocks.ts';
import type { Page } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { pagedList } from '../ui/pager.ts';
import { roundCurrency, statusBadge, transactionsCell } from '../ui/round-cells.ts';
import { heading } from './auth-pages.ts';
import { resolveForm } from './resolve-form.ts';
import { roundLink } from './round-link.ts';

const PAGE_SIZE = 20;

/**
 * The rounds flagged for reconciliation (GET /v1/reconciliation): the service could not settle them
 * by itself (docs/reconciliation.md). Each gets a resolve form once the operator settled it by hand.
 */
export const flaggedPage: Page = (context) => {
  const { t, lang } = context;
  const feedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  const formSlot = el('div');

  function openForm(round: Round): void {
    const title = el('h2', { tabindex: -1 }, [t.flagged.resolveOf(round._id.slice(0, 8))]);
    formSlot.replaceChildren(
      el('section', { class: 'card', 'aria-label': t.flagged.resolveTitle }, [
        title,
        resolveForm(context, round, async () => {
          formSlot.replaceChildren();
          await rounds.load();
          feedback.say(t.flagged.resolved);
        }),
      ]),
    );
    title.focus();
  }

  const rounds = pagedList({
    t,
    feedback,
    list,
    label: t.flagged.title,
    fetch: (pageIndex) => context.api.listFlagged({ pageIndex, pageSize: PAGE_SIZE }),
    render: (page) =>
      table<Round>(
        t.flagged.title,
        [
          [t.rounds.id, (round) => roundLink(context, round._id)],
          [t.common.created, (round) => utcTime(round.createdAt, lang)],
          [t.players.credential, (round) => round.user.credential],
          [t.rounds.paid, (round) => moneyOfMajor(round.paidPrice, roundCurrency(round), lang)],
          [t.rounds.prize, (round) => moneyOfMajor(round.prize, roundCurrency(round), lang)],
          [t.common.status, (round) => statusBadge(round.status)],
          [t.rounds.transactions, (round) => transactionsCell(round, t, lang)],
          [
            t.common.actions,
            (round) => {
              const button = el(
                'button',
                { type: 'button', class: 'secondary', 'aria-label': t.flagged.resolveOf(round._id) },
                [t.flagged.resolve],
              );
              button.addEventListener('click', () => openForm(round));
              return button;
            },
          ],
        ],
        page.items,
        t.flagged.none,
      ),
  });
  void rounds.load();

  return el('section', {}, [
    heading(t.flagged.title),
    el('p', { class: 'lead' }, [t.flagged.intro]),
    ...feedback.nodes(),
    list,
    formSlot,
  ]);
};
