import { count, el, moneyOfMajor } from '@raspa/browser-kit';
import { PROMOTION_LIMITS } from '@raspa/core';
import type { Game, Lang, PromotionStatus } from '@raspa/server/wire';
import type { Catalogue } from '../i18n/en.ts';
import type { DraftProblem } from '../promotions/promotion-draft.ts';
import { type BatchOutcome, sendInBatches } from '../promotions/send-in-batches.ts';
import type { Feedback } from '../ui/feedback.ts';

// What the promotions list, the new promotion's form and a promotion's page share.

/** A game as staff pick it: model, version and card price. */
export const gameLabel = (game: Game, t: Catalogue, lang: Lang) =>
  t.promotions.gameLabel(game.gameModel, game.version, moneyOfMajor(game.betPrice, game.currency, lang));

/** A promotion's status as a badge (its word in the panel's language). */
export const promotionBadge = (status: PromotionStatus, t: Catalogue) =>
  el('span', { class: `badge promotion-${status}` }, [t.promotions.statuses[status]]);

/** Whether players may still be added, or it cancelled. */
export const isOpen = (status: PromotionStatus) => status === 'scheduled' || status === 'active';

/** The service's most players per call. */
export const PLAYERS_PER_CALL = PROMOTION_LIMITS.playersPerCall.max;
export const MAX_DAYS = Math.round(PROMOTION_LIMITS.maxDurationMs / 86_400_000);

/** A draft's problems, in the panel's language. */
export function draftMessages(problems: readonly DraftProblem[], t: Catalogue): string[] {
  return problems.map((problem) => draftMessage(problem, t));
}

function draftMessage(problem: DraftProblem, t: Catalogue): string {
  const { nameLength, cardsPerPlayer } = PROMOTION_LIMITS;
  if (problem.kind === 'name') return t.promotions.nameLength(nameLength.max);
  if (problem.kind === 'cards') return t.promotions.cardsRange(cardsPerPlayer.min, cardsPerPlayer.max);
  if (problem.kind === 'no-ids') return t.promotions.noIds;
  if (problem.kind === 'id-lines') return t.promotions.problemsTitle;
  if (problem.kind === 'bad-time') {
    return t.promotions.badTime(problem.field === 'startAt' ? t.promotions.startAt : t.promotions.expireAt);
  }
  if (problem.rule === 'long') return t.promotions.timeProblems.long(MAX_DAYS);
  if (problem.rule === 'other') return problem.message;
  return t.promotions.timeProblems[problem.rule];
}

/**
 * Sends a form's players in calls of 10,000 (the service's most per call), the form busy and a
 * <progress> with its words shown meanwhile. Each call carries an Idempotency-Key of this attempt and
 * its index, kept while the form is unchanged, so sending the same form again after a failure replays
 * the calls that were done instead of granting cards twice.
 */
export function playersSender(
  form: HTMLFormElement,
  submit: HTMLButtonElement,
  feedback: Feedback,
  t: Catalogue,
  lang: Lang,
) {
  const bar = el('progress', { max: 1, value: 0, 'aria-label': t.promotions.progress, hidden: true });
  let attempt = crypto.randomUUID();
  form.addEventListener('input', () => {
    attempt = crypto.randomUUID();
  });
  return {
    node: bar,
    async send(
      ids: readonly string[],
      call: (batch: string[], idempotencyKey: string, index: number) => Promise<unknown>,
    ): Promise<BatchOutcome> {
      submit.disabled = true;
      form.setAttribute('aria-busy', 'true');
      const outcome = await sendInBatches(
        ids,
        PLAYERS_PER_CALL,
        (batch, index) => call(batch, `${attempt}-${index}`, index),
        (sent, total) => {
          if (total <= PLAYERS_PER_CALL) return;
          bar.hidden = false;
          bar.max = total;
          bar.value = sent;
          feedback.say(t.promotions.sending(count(sent, lang), count(total, lang)));
        },
      );
      submit.disabled = false;
      form.removeAttribute('aria-busy');
      bar.hidden = true;
      feedback.say('');
      if (outcome.error === undefined) attempt = crypto.randomUUID();
      return outcome;
    },
  };
}
