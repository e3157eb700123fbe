import { count, el, fill, moneyOfMajor, utcTime } from '@raspa/browser-kit';
import type { Game, Promotion } from '@raspa/server/wire';
import { facts, section } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { playerIdsField } from '../ui/player-ids-field.ts';
import { shortId } from '../ui/short-id.ts';
import { heading, link } from './auth-pages.ts';
import { draftMessages, gameLabel, isOpen, playersSender, promotionBadge } from './promotion-parts.ts';

/** Adds players (pasted or from a file) in calls of 10,000, with progress; `done` reloads the page. */
function addPlayersForm(context: PageContext, promotion: Promotion, done: (said: string) => Promise<void>) {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const ids = playerIdsField(t, lang);
  const submit = el('button', { type: 'submit' }, [t.promotions.add]);
  const form = el('form', {}, [ids.node, el('div', { class: 'actions' }, [submit]), ...feedback.nodes()]);
  const sender = playersSender(form, submit, feedback, t, lang);
  form.insertBefore(sender.node, feedback.status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    feedback.clear();
    const parsed = ids.read();
    if (parsed.problems.length > 0 || parsed.ids.length === 0) {
      feedback.show(draftMessages([{ kind: parsed.problems.length ? 'id-lines' : 'no-ids' }], t));
      return;
    }
    let added = 0;
    let already = 0;
    const outcome = await sender.send(parsed.ids, async (batch, key) => {
      const answer = await api.addPromotionPlayers(promotion.promotionId, batch, key);
      added += answer.added;
      already += answer.alreadyGranted;
    });
    const summary = t.promotions.addedSummary(count(added, lang), count(already, lang));
    if (outcome.error !== undefined) {
      feedback.fail(outcome.error);
      if (outcome.sent > 0) feedback.say(summary);
      return;
    }
    await done(summary);
  });
  return form;
}

/** A promotion: its figures, adding players, and cancelling it (after a confirmation). */
export const promotionPage: Page = (context) => {
  const { api, t, lang } = context;
  const promotionId = context.query.get('id') ?? '';
  const feedback = new Feedback(() => t);
  const body = el('div');
  const title = heading(t.promotions.detailTitle('…'));
  const back = el('p', {}, [link(context, 'promotions', t.promotions.back)]);
  if (!promotionId)
    return el('section', {}, [heading(t.promotions.title), el('p', {}, [t.promotions.noId]), back]);

  async function cancel(promotion: Promotion, button: HTMLButtonElement) {
    if (!window.confirm(t.promotions.confirmCancel(promotion.name))) return;
    const cancelled = await feedback.run(t.common.saving, () => api.cancelPromotion(promotion.promotionId), {
      button,
    });
    if (cancelled) show(cancelled, t.promotions.cancelled);
  }

  function show(promotion: Promotion, said = ''): void {
    title.textContent = t.promotions.detailTitle(promotion.name);
    const money = (amount: number) => moneyOfMajor(amount, promotion.currency, lang);
    const figure = (label: string, value: string, key: string) =>
      el('div', { class: 'figure', 'data-figure': key }, [el('dt', {}, [label]), el('dd', {}, [value])]);
    const open = isOpen(promotion.status);
    const cancelButton = el('button', { type: 'button', class: 'danger' }, [t.promotions.cancel]);
    cancelButton.addEventListener('click', () => void cancel(promotion, cancelButton));
    fill(body, [
      section(t.promotions.figuresTitle, [
        el('dl', { class: 'figures' }, [
          figure(t.promotions.players, count(promotion.players, lang), 'players'),
          figure(t.promotions.granted, count(promotion.granted, lang), 'granted'),
          figure(t.promotions.used, count(promotion.used, lang), 'used'),
          figure(t.promotions.prizes, money(promotion.prizes), 'prizes'),
        ]),
        facts([
          [t.common.status, promotionBadge(promotion.status, t)],
          [t.promotions.game, game ? gameLabel(game, t, lang) : shortId(promotion.gameId)],
          [t.promotions.cardValue, money(promotion.cardValue)],
          [t.promotions.cardsPerPlayer, count(promotion.cardsPerPlayer, lang)],
          [t.promotions.startAt, utcTime(promotion.startAt, lang)],
          [t.promotions.expireAt, utcTime(promotion.expireAt, lang)],
          promotion.cancelledAt ? [t.promotions.cancelledAt, utcTime(promotion.cancelledAt, lang)] : null,
          [t.common.created, utcTime(promotion.createdAt, lang)],
        ]),
        el('p', { class: 'hint' }, [t.promotions.versions]),
        open ? null : el('p', { class: 'notice' }, [t.promotions.closed]),
      ]),
      open
        ? section(t.promotions.addTitle, [
            el('p', { class: 'hint' }, [t.promotions.addIntro]),
            addPlayersForm(context, promotion, async (summary) => {
              await load();
              feedback.say(summary);
            }),
          ])
        : null,
      open
        ? section(t.promotions.cancelTitle, [
            el('p', {}, [t.promotions.cancelIntro]),
            el('div', { class: 'actions' }, [cancelButton]),
          ])
        : null,
    ]);
    if (said) feedback.say(said);
  }

  /** The promotion's game, for its name and price (the promotion names it by id only). */
  let game: Game | undefined;

  async function load(): Promise<void> {
    const promotion = await feedback.run(t.common.loading, () => api.getPromotion(promotionId), {
      region: body,
    });
    if (!promotion) return;
    game ??= (await api.listGames(promotion.profileId).catch(() => [])).find(
      (candidate) => candidate.id === promotion.gameId,
    );
    show(promotion);
  }
  void load();

  return el('section', {}, [title, back, ...feedback.nodes(), body]);
};
