import type { Lang } from '@raspa/browser-kit';
import { toMinor } from '@raspa/core';
import { StillCard, stillResult } from '../card/still-card.ts';
import { createI18n } from '../i18n/i18n.ts';
import type { DrawContext } from '../models/model-art.ts';
import { MODEL_ART } from '../models/registry.ts';

import type { ReplayRound } from './replay-round.ts';

export type { ReplayRound } from './replay-round.ts';

/** Major units from the API as the integer minor units the renderer formats (0 if unreadable). */
export function minorOf(amount: number, currency: string): number {
  const converted = toMinor(amount, currency);
  return converted.ok ? converted.minor : 0;
}

/**
 * Draws a round's card in `host` as the player saw it at the end: scratched, the winning spots
 * outlined, the result banner with the prize. Uses the player's page's own renderer (CardView and
 * the model's art), so support sees what the player saw. Resolves with the drawing (destroy() it to
 * free the canvas); rejects when the browser cannot draw (no WebGL) or the round has no card (a
 * declined or voided bet never drew a ticket).
 *
 * `import { drawRoundCard } from '@raspa/game/round-card'` (the panel's round details; the replay
 * page at /replay/{token}).
 */
export async function drawRoundCard(host: HTMLElement, round: ReplayRound, lang: Lang): Promise<StillCard> {
  const { card, currency } = round;
  if (!card) throw new Error(`round ${round._id} has no card: it never drew a ticket`);
  const i18n = createI18n(lang, currency);
  const prizes = new Map(round.prizeLevels.map((each) => [each.level, minorOf(each.prize, currency)]));
  const context: DrawContext = { i18n, prize: (level) => i18n.money(prizes.get(level) ?? 0) };
  const still = await StillCard.create(host);
  still.show(MODEL_ART[card.model], context, card, stillResult(i18n, minorOf(round.prize, currency)));
  return still;
}
