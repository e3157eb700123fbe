import { pick, type Rng, randomInt } from '../random/rng.ts';
import { assertLevel, cardChecker, malformed, randomPrizeLevel } from './card-helpers.ts';
import type { Card, CardCell, CardModelInfo, CardReading, FeraSortudaCard } from './card-types.ts';
import { layoutMatchThree, readMatchThree, tokenBySymbol } from './match-three.ts';

/** Lucky animals in the jogo-do-bicho spirit, cheapest first; the lion is the jackpot. */
const ANIMALS = [
  { id: 'borboleta', name: { pt: 'Borboleta', en: 'Butterfly', es: 'Mariposa' }, emoji: '🦋' },
  { id: 'macaco', name: { pt: 'Macaco', en: 'Monkey', es: 'Mono' }, emoji: '🐒' },
  { id: 'cobra', name: { pt: 'Cobra', en: 'Snake', es: 'Serpiente' }, emoji: '🐍' },
  { id: 'jacare', name: { pt: 'Jacaré', en: 'Caiman', es: 'Yacaré' }, emoji: '🐊' },
  { id: 'pavao', name: { pt: 'Pavão', en: 'Peacock', es: 'Pavo real' }, emoji: '🦚' },
  { id: 'aguia', name: { pt: 'Águia', en: 'Eagle', es: 'Águila' }, emoji: '🦅' },
  { id: 'tigre', name: { pt: 'Tigre', en: 'Tiger', es: 'Tigre' }, emoji: '🐅' },
  { id: 'leao', name: { pt: 'Leão', en: 'Lion', es: 'León' }, emoji: '🦁' },
] as const;

/** The lucky beast: found in the bonus box, it wins the prize printed there. */
const BEAST = 'onca';
const BONUS_FILLERS = ['pegada', 'capim'] as const;
/** Share of winning cards that win through the bonus box rather than the grid. */
const BONUS_ODDS = 4;

export const FERA_SORTUDA_INFO: CardModelInfo = {
  model: 'fera-sortuda',
  title: 'Fera Sortuda',
  rule: 'match-three-or-bonus',
  rows: 4,
  cols: 3,
  extrasCount: 1,
  cellsShowPrize: false,
  extrasShowPrize: true,
  ruleText: {
    pt: 'Encontre três animais iguais e ganhe o prêmio desse animal, ou ache a onça no bônus e ganhe o prêmio ao lado dela.',
    en: "Find three equal animals to win that animal's prize, or find the jaguar in the bonus box to win the prize beside it.",
    es: 'Encuentra tres animales iguales y gana el premio de ese animal, o encuentra el jaguar en el bono y gana el premio a su lado.',
  },
  symbols: ANIMALS.map((a, i) => ({ ...a, level: i + 1 })),
  extraSymbols: [
    { id: BEAST, name: { pt: 'Onça-pintada', en: 'Jaguar', es: 'Jaguar' }, emoji: '🐆', wins: true },
    { id: 'pegada', name: { pt: 'Pegada', en: 'Paw print', es: 'Huella' }, emoji: '🐾' },
    { id: 'capim', name: { pt: 'Capim', en: 'Grass', es: 'Pasto' }, emoji: '🌿' },
  ],
};

const check = cardChecker(FERA_SORTUDA_INFO);
const tokenOf = tokenBySymbol(FERA_SORTUDA_INFO.symbols);
const animalCell = (t: number): CardCell => ({ symbol: ANIMALS[t]?.id as string });

export function layoutFeraSortuda(level: number, rng: Rng): FeraSortudaCard {
  assertLevel(level);
  // A win shows exactly one pattern: either the grid triple or the beast, never both.
  const viaBonus = level > 0 && randomInt(rng, BONUS_ODDS) === 0;
  const { cells, winningCells } = layoutMatchThree(rng, 12, viaBonus ? 0 : level, animalCell);
  const bonus: CardCell = viaBonus
    ? { symbol: BEAST, prizeLevel: level }
    : { symbol: pick(rng, BONUS_FILLERS), prizeLevel: randomPrizeLevel(rng) };
  return {
    model: 'fera-sortuda',
    rule: 'match-three-or-bonus',
    rows: 4,
    cols: 3,
    cells,
    extras: [bonus],
    winningCells,
    winningExtras: viaBonus ? [0] : [],
  };
}

export function readFeraSortuda(card: Card): CardReading {
  check(card);
  const grid = readMatchThree(card.cells, tokenOf, FERA_SORTUDA_INFO);
  const bonus = card.extras[0] as CardCell;
  if (bonus.symbol !== BEAST) return { ...grid, winningExtras: [] };
  if (grid.level !== 0) throw malformed(FERA_SORTUDA_INFO, 'both a grid triple and the beast');
  return { level: bonus.prizeLevel as number, winningCells: [], winningExtras: [0] };
}
