import { count, el, moneyOfMajor, utcTime } from '@raspa/browser-kit';
import type { PlayerFreeCards, Round } from '@raspa/server/wire';
import { section, table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { copyField } from '../ui/copy-field.ts';
import { Feedback } from '../ui/feedback.ts';
import { roundCurrency, statusBadge } from '../ui/round-cells.ts';
import { heading, link } from './auth-pages.ts';
import { exclusionSection } from './player-exclusion.ts';
import { limitsSection } from './player-limits.ts';
import { sessionsSection } from './player-sessions.ts';
import { promotionBadge } from './promotion-parts.ts';
import { roundLink } from './round-link.ts';

const LAST_ROUNDS = 10;

/** A section filled once its request answers (its own progress and errors). */
function loadedSection<T>(
  context: PageContext,
  title: string,
  fetch: () => Promise<T>,
  render: (value: T) => Node,
): HTMLElement {
  const feedback = new Feedback(() => context.t);
  const body = el('div');
  void feedback.run(context.t.common.loading, fetch, { region: body }).then((value) => {
    if (value !== undefined) body.replaceChildren(render(value));
  });
  return section(title, [...feedback.nodes(), body]);
}

/**
 * A player's page (from the players list): limits with usage, exclusion, live sessions with "End
 * session", free cards per promotion and the last rounds. There is no GET of one player: the list's link brings the credential and profile.
 */
export const playerPage: Page = (context) => {
  const { api, t, lang } = context;
  const userId = context.query.get('id') ?? '';
  const profileId = context.query.get('profileId') ?? '';
  const credential = context.query.get('credential') || userId;
  const back = el('p', {}, [link(context, 'players', t.nav.players, profileId ? { profileId } : undefined)]);
  if (!userId) return el('section', {}, [heading(t.nav.players), el('p', {}, [t.player.noId]), back]);

  // The profile's currencies (the limits' choices); the limits wait for it, the rest does not.
  const limitsSlot = el('div');
  const profileFeedback = new Feedback(() => t);
  void (
    profileId
      ? profileFeedback.run(t.common.loading, () => api.getProfile(profileId))
      : Promise.resolve(undefined)
  ).then((profile) => limitsSlot.replaceChildren(limitsSection(context, userId, profile)));

  const freeCards = loadedSection(
    context,
    t.player.freeCardsTitle,
    () => api.freeCards(userId),
    (cards: PlayerFreeCards) =>
      table<PlayerFreeCards['freeCards'][number]>(
        t.player.freeCardsTitle,
        [
          [t.player.promotion, (line) => link(context, 'promotion', line.name, { id: line.promotionId })],
          [t.player.left, (line) => count(line.left, lang)],
          [t.common.status, (line) => promotionBadge(line.status, t)],
          [t.promotions.startAt, (line) => utcTime(line.startAt, lang)],
          [t.promotions.expireAt, (line) => utcTime(line.expireAt, lang)],
        ],
        cards.freeCards,
        t.player.noFreeCards,
      ),
  );

  const rounds = loadedSection(
    context,
    t.player.roundsTitle,
    () => api.listRounds({ userId, pageSize: LAST_ROUNDS }),
    (page) =>
      el('div', {}, [
        table<Round>(
          t.player.roundsTitle,
          [
            [t.rounds.id, (round) => roundLink(context, round._id)],
            [t.common.created, (round) => utcTime(round.createdAt, lang)],
            [t.rounds.paid, (round) => moneyOfMajor(round.paidPrice, roundCurrency(round), lang)],
            [t.rounds.prize, (round) => moneyOfMajor(round.prize, roundCurrency(round), lang)],
            [t.common.status, (round) => statusBadge(round.status)],
          ],
          page.items,
          t.common.none,
        ),
        el('p', {}, [
          link(context, 'rounds', t.player.allRounds, { userId, ...(profileId && { profileId }) }),
        ]),
      ]),
  );

  return el('section', {}, [
    heading(t.player.title(credential)),
    back,
    copyField({ id: 'player-id', label: t.player.id, value: userId, t, feedback: profileFeedback }).node,
    ...profileFeedback.nodes(),
    limitsSlot,
    exclusionSection(context, userId),
    sessionsSection(context, userId, profileId),
    freeCards,
    rounds,
  ]);
};
