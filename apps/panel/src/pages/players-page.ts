import { count, el, moneyOfMajor, utcTime } from '@raspa/browser-kit';
import type { Player } from '@raspa/server/wire';
import { field, table } from '../ui/blocks.ts';
import type { Page } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { pagedList } from '../ui/pager.ts';
import { profilePicker } from '../ui/profile-picker.ts';
import { heading, link } from './auth-pages.ts';

const PAGE_SIZE = 20;

export const playersPage: Page = (context) => {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  const search = el('input', {
    name: 'search',
    type: 'search',
    autocomplete: 'off',
    value: context.query.get('search') ?? '',
  });
  const submit = el('button', { type: 'submit' }, [t.common.search]);
  const form = el('form', { class: 'filters', role: 'search' });

  void profilePicker(context, feedback).then((chosen) => {
    if (!chosen || chosen.profiles.length === 0) {
      if (chosen) form.replaceChildren(chosen.node);
      return;
    }
    const { control, profiles } = chosen;
    form.replaceChildren(
      chosen.node,
      field(t.players.search, search),
      el('div', { class: 'actions' }, [submit]),
    );

    const currencyOf = (profileId: string) =>
      profiles.find((profile) => profile.profileId === profileId)?.currency ?? 'BRL';
    const players = pagedList({
      t,
      feedback,
      list,
      button: submit,
      label: t.players.title,
      pageIndex: Number(context.query.get('pageIndex')) || 1,
      fetch: (pageIndex) =>
        api.listPlayers({
          profileId: control.value,
          search: search.value.trim(),
          pageIndex,
          pageSize: PAGE_SIZE,
        }),
      loaded: (_page, pageIndex) =>
        context.setQuery({
          profileId: control.value,
          search: search.value.trim() || undefined,
          pageIndex: pageIndex > 1 ? String(pageIndex) : undefined,
        }),
      render: (page) => {
        const profileId = control.value;
        const currency = currencyOf(profileId);
        return table<Player>(
          t.players.title,
          [
            [
              t.players.credential,
              (player) => {
                const anchor = link(context, 'player', player.credential, {
                  id: player._id,
                  profileId,
                  credential: player.credential,
                });
                anchor.setAttribute('aria-label', t.players.open(player.credential));
                return el('strong', {}, [anchor]);
              },
            ],
            [t.players.credentialType, (player) => player.credentialType],
            [t.players.balance, (player) => moneyOfMajor(player.balance, currency, lang)],
            [t.players.totalBets, (player) => count(player.totalBets, lang)],
            [t.players.betWins, (player) => count(player.betWins, lang)],
            [t.common.created, (player) => utcTime(player.createdAt, lang)],
            [
              t.players.rounds,
              (player) => {
                const anchor = link(context, 'rounds', t.players.rounds, { profileId, userId: player._id });
                anchor.setAttribute('aria-label', t.players.roundsOf(player.credential));
                return anchor;
              },
            ],
          ],
          page.items,
          t.common.none,
        );
      },
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void players.first();
    });
    control.addEventListener('change', () => void players.first());
    void players.load();
  });

  return el('section', {}, [heading(t.players.title), form, ...feedback.nodes(), list]);
};
