import { count, el, moneyOfMajor, utcTime } from '@raspa/browser-kit';
import { PROMOTION_LIMITS } from '@raspa/core';
import type { Game, Promotion } from '@raspa/server/wire';
import { checkPromotionDraft } from '../promotions/promotion-draft.ts';
import { field, formValues, select, table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { pagedList } from '../ui/pager.ts';
import { playerIdsField } from '../ui/player-ids-field.ts';
import { profilePicker } from '../ui/profile-picker.ts';
import { heading, link } from './auth-pages.ts';
import { draftMessages, gameLabel, MAX_DAYS, playersSender, promotionBadge } from './promotion-parts.ts';

const PAGE_SIZE = 20;

/**
 * The new promotion's form: the game, a name, the players' ids (pasted or from a file), cards per
 * player, start and expiry. Checked against the service's limits before sending; more than 10,000 ids
 * go in several calls (the first creates it, the others add players), each with an Idempotency-Key that
 * a retry of the same form sends again, so nothing is granted twice.
 */
function promotionForm(
  context: PageContext,
  profileId: string,
  games: Game[],
  onCreated: () => Promise<void>,
): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const { cardsPerPlayer } = PROMOTION_LIMITS;
  const ids = playerIdsField(t, lang);
  const submit = el('button', { type: 'submit' }, [t.promotions.create]);
  // Active versions first: the one players are offered now is the likely choice.
  const ordered = [...games].sort((a, b) => Number(b.active) - Number(a.active) || b.version - a.version);
  const form = el('form', { class: 'card', novalidate: true }, [
    el('h2', {}, [t.promotions.createTitle]),
    el('div', { class: 'grid' }, [
      field(
        t.promotions.game,
        select(
          'gameId',
          ordered.map((game) => [game.id, gameLabel(game, t, lang)] as const),
        ),
      ),
      field(
        t.promotions.name,
        el('input', {
          name: 'name',
          required: true,
          maxlength: PROMOTION_LIMITS.nameLength.max,
          autocomplete: 'off',
        }),
      ),
      field(
        t.promotions.cardsPerPlayer,
        el('input', {
          name: 'cardsPerPlayer',
          type: 'number',
          required: true,
          min: cardsPerPlayer.min,
          max: cardsPerPlayer.max,
          step: 1,
          value: 1,
          inputmode: 'numeric',
          class: 'short',
        }),
        t.promotions.cardsHint(cardsPerPlayer.min, cardsPerPlayer.max),
      ),
      field(t.promotions.startAtInput, el('input', { name: 'startAt', type: 'datetime-local' })),
      field(
        t.promotions.expireAtInput,
        el('input', { name: 'expireAt', type: 'datetime-local', required: true }),
        t.promotions.timesHint(MAX_DAYS),
      ),
    ]),
    ids.node,
    el('div', { class: 'actions' }, [submit]),
    ...feedback.nodes(),
  ]);
  const sender = playersSender(form, submit, feedback, t, lang);
  form.insertBefore(sender.node, feedback.status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    feedback.clear();
    const values = formValues(form);
    const checked = checkPromotionDraft(
      {
        name: values.name ?? '',
        cardsPerPlayer: values.cardsPerPlayer ?? '',
        startAt: values.startAt ?? '',
        expireAt: values.expireAt ?? '',
        ids: ids.read(),
      },
      Date.now(),
    );
    if (!checked.ok) {
      feedback.show(draftMessages(checked.problems, t));
      return;
    }
    const { players, ...rest } = checked.value;
    const body = { ...rest, profileId, gameId: values.gameId ?? '' };
    let promotionId = '';
    const outcome = await sender.send(players, async (batch, key, index) => {
      if (index === 0) ({ promotionId } = await api.createPromotion({ ...body, players: batch }, key));
      else await api.addPromotionPlayers(promotionId, batch, key);
    });
    if (outcome.error !== undefined) {
      feedback.fail(outcome.error);
      if (promotionId) {
        feedback.say(
          t.promotions.partlyCreated(body.name, count(outcome.sent, lang), count(players.length, lang)),
        );
      }
      return;
    }
    form.reset();
    ids.clear();
    await onCreated();
    feedback.say(t.promotions.created(body.name));
  });
  return form;
}

/** Promotions: the list (status, game, cards granted and used, prizes, expiry) and the form for a new one. */
export const promotionsPage: Page = (context) => {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  const formSlot = el('div');
  const filters = el('form', { class: 'filters' });

  void profilePicker(context, feedback).then(async (chosen) => {
    if (!chosen) return;
    filters.replaceChildren(chosen.node);
    if (chosen.profiles.length === 0) return;
    const { control } = chosen;
    let games: Game[] = [];
    const gameName = (gameId: string) => {
      const game = games.find((candidate) => candidate.id === gameId);
      return game ? gameLabel(game, t, lang) : gameId;
    };
    const promotions = pagedList({
      t,
      feedback,
      list,
      label: t.promotions.title,
      pageIndex: Number(context.query.get('pageIndex')) || 1,
      fetch: (pageIndex) => api.listPromotions({ profileId: control.value, pageIndex, pageSize: PAGE_SIZE }),
      loaded: (_page, pageIndex) =>
        context.setQuery({
          profileId: control.value,
          pageIndex: pageIndex > 1 ? String(pageIndex) : undefined,
        }),
      render: (page) =>
        table<Promotion>(
          t.promotions.title,
          [
            [
              t.promotions.name,
              (promotion) => {
                const anchor = link(context, 'promotion', promotion.name, { id: promotion.promotionId });
                anchor.setAttribute('aria-label', t.promotions.open(promotion.name));
                return anchor;
              },
            ],
            [t.common.status, (promotion) => promotionBadge(promotion.status, t)],
            [t.promotions.game, (promotion) => gameName(promotion.gameId)],
            [t.promotions.players, (promotion) => count(promotion.players, lang)],
            [t.promotions.granted, (promotion) => count(promotion.granted, lang)],
            [t.promotions.used, (promotion) => count(promotion.used, lang)],
            [t.promotions.prizes, (promotion) => moneyOfMajor(promotion.prizes, promotion.currency, lang)],
            [t.promotions.startAt, (promotion) => utcTime(promotion.startAt, lang)],
            [t.promotions.expireAt, (promotion) => utcTime(promotion.expireAt, lang)],
          ],
          page.items,
          t.promotions.none,
        ),
    });
    const load = async (first = false) => {
      games = (await feedback.run(t.common.loading, () => api.listGames(control.value))) ?? [];
      formSlot.replaceChildren(
        games.length
          ? promotionForm(context, control.value, games, () => promotions.first())
          : el('p', { class: 'empty' }, [t.promotions.noGames]),
      );
      await (first ? promotions.first() : promotions.load());
    };
    control.addEventListener('change', () => void load(true));
    await load();
  });

  return el('section', {}, [
    heading(t.promotions.title),
    el('p', { class: 'lead' }, [t.promotions.intro]),
    filters,
    ...feedback.nodes(),
    list,
    formSlot,
  ]);
};
