// A round's card drawn by the player's page's own renderer (@raspa/game/round-card), revealed as the
// player saw it at the end. Imported only by the round page when a card is shown: Pixi is large and
// every other page does without it.
import 'pixi.js/unsafe-eval'; // the service's CSP forbids eval; this build of Pixi's shader code needs none
import { drawRoundCard } from '@raspa/game/round-card';
import type { Lang, RoundDetail } from '@raspa/server/wire';

/**
 * Draws GET /v1/round/{roundId}'s answer in `host` (its type is the service's own schema, card
 * included: nothing to check again here, and no zod in the panel); resolves with a way to free the
 * canvas. Rejects when the browser cannot draw.
 */
export async function drawRound(host: HTMLElement, round: RoundDetail, lang: Lang): Promise<() => void> {
  const still = await drawRoundCard(host, round, lang);
  return () => still.destroy();
}
