import type { Ladder } from '../ladder/ladder-types.ts';
import { type GameModel, isGameModel } from '../models.ts';
import type { Rng } from '../random/rng.ts';
import { BUMBA_MEU_GREEN_INFO, layoutBumbaMeuGreen, readBumbaMeuGreen } from './bumba-meu-green.ts';
import { assertLadder } from './card-helpers.ts';
import type { Card, CardModelInfo, CardOfModel, CardReading } from './card-types.ts';
import { FERA_SORTUDA_INFO, layoutFeraSortuda, readFeraSortuda } from './fera-sortuda.ts';
import { FREVO_DA_SORTE_INFO, layoutFrevoDaSorte, readFrevoDaSorte } from './frevo-da-sorte.ts';
import { layoutOxeGanhei, OXE_GANHEI_INFO, readOxeGanhei } from './oxe-ganhei.ts';
import { layoutTremDeOuroV1, readTremDeOuroV1, TREM_DE_OURO_V1_INFO } from './trem-de-ouro-v1.ts';
import { layoutTremDeOuroV2, readTremDeOuroV2, TREM_DE_OURO_V2_INFO } from './trem-de-ouro-v2.ts';
import { layoutTremDeOuroV3, readTremDeOuroV3, TREM_DE_OURO_V3_INFO } from './trem-de-ouro-v3.ts';

interface CardModelImpl<M extends GameModel> {
  info: CardModelInfo;
  layout: (level: number, rng: Rng) => CardOfModel<M>;
  read: (card: Card) => CardReading;
}

const IMPLS: { readonly [M in GameModel]: CardModelImpl<M> } = {
  'oxe-ganhei': { info: OXE_GANHEI_INFO, layout: layoutOxeGanhei, read: readOxeGanhei },
  'trem-de-ouro-v1': { info: TREM_DE_OURO_V1_INFO, layout: layoutTremDeOuroV1, read: readTremDeOuroV1 },
  'trem-de-ouro-v2': { info: TREM_DE_OURO_V2_INFO, layout: layoutTremDeOuroV2, read: readTremDeOuroV2 },
  'trem-de-ouro-v3': { info: TREM_DE_OURO_V3_INFO, layout: layoutTremDeOuroV3, read: readTremDeOuroV3 },
  'frevo-da-sorte': { info: FREVO_DA_SORTE_INFO, layout: layoutFrevoDaSorte, read: readFrevoDaSorte },
  'bumba-meu-green': { info: BUMBA_MEU_GREEN_INFO, layout: layoutBumbaMeuGreen, read: readBumbaMeuGreen },
  'fera-sortuda': { info: FERA_SORTUDA_INFO, layout: layoutFeraSortuda, read: readFeraSortuda },
};

/** Title, grid, rule sentence and symbols of each model's card, for the page and the docs. */
export const CARD_MODELS: { readonly [M in GameModel]: CardModelInfo } = {
  'oxe-ganhei': OXE_GANHEI_INFO,
  'trem-de-ouro-v1': TREM_DE_OURO_V1_INFO,
  'trem-de-ouro-v2': TREM_DE_OURO_V2_INFO,
  'trem-de-ouro-v3': TREM_DE_OURO_V3_INFO,
  'frevo-da-sorte': FREVO_DA_SORTE_INFO,
  'bumba-meu-green': BUMBA_MEU_GREEN_INFO,
  'fera-sortuda': FERA_SORTUDA_INFO,
};

/**
 * Lays out the card of a ticket at `level` (0 = loss, 1..8 = that level's prize): the card shows a
 * winning pattern exactly when the ticket wins, worth exactly that level's prize. Fillers come from
 * `rng`, so the same model, level and rng state always give the same card.
 */
export function layoutCard<M extends GameModel>(
  model: M,
  ladder: Ladder,
  level: number,
  rng: Rng,
): CardOfModel<M> {
  if (!isGameModel(model)) throw new RangeError(`unknown game model ${JSON.stringify(model)}`);
  assertLadder(ladder);
  return IMPLS[model].layout(level, rng);
}

/**
 * Reads a card as a player would, by its model's visible rule alone: the level it wins (0 = loss)
 * and the spots making the win. Throws RangeError on a malformed or ambiguous card.
 */
export function decodeCard(card: Card, ladder: Ladder): CardReading {
  assertLadder(ladder);
  const model: unknown = card?.model;
  if (!isGameModel(model)) throw new RangeError(`unknown game model ${JSON.stringify(model)}`);
  return IMPLS[model].read(card);
}

/** The level a card wins (0 = loss), read from its symbols. */
export function readCard(card: Card, ladder: Ladder): number {
  return decodeCard(card, ladder).level;
}
