/** The seven game models of the spec, in its order. */
export const GAME_MODELS = [
  'oxe-ganhei',
  'trem-de-ouro-v1',
  'trem-de-ouro-v2',
  'trem-de-ouro-v3',
  'frevo-da-sorte',
  'bumba-meu-green',
  'fera-sortuda',
] as const;

export type GameModel = (typeof GAME_MODELS)[number];

export function isGameModel(value: unknown): value is GameModel {
  return typeof value === 'string' && (GAME_MODELS as readonly string[]).includes(value);
}

/** Every ladder has this many levels (spec: "The samples contain 8 levels"). */
export const LEVEL_COUNT = 8;
