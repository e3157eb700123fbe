import type { CardSymbol } from './card-types.ts';

/** Cargo carried by the trem de ouro, cheapest first (shared by its versions). */
export const CARGOES: readonly CardSymbol[] = [
  { id: 'carvao', name: { pt: 'Carvão', en: 'Coal', es: 'Carbón' }, emoji: '🪨' },
  { id: 'algodao', name: { pt: 'Algodão', en: 'Cotton', es: 'Algodón' }, emoji: '🧶' },
  { id: 'cana', name: { pt: 'Cana-de-açúcar', en: 'Sugar cane', es: 'Caña de azúcar' }, emoji: '🎋' },
  { id: 'cafe', name: { pt: 'Café', en: 'Coffee', es: 'Café' }, emoji: '☕' },
  { id: 'cacau', name: { pt: 'Cacau', en: 'Cacao', es: 'Cacao' }, emoji: '🍫' },
  { id: 'prata', name: { pt: 'Prata', en: 'Silver', es: 'Plata' }, emoji: '🥈' },
  { id: 'barra-de-ouro', name: { pt: 'Barra de ouro', en: 'Gold bar', es: 'Lingote de oro' }, emoji: '🪙' },
];

/** The jackpot symbol of trem-de-ouro-v1. */
export const GOLDEN_LOCOMOTIVE: CardSymbol = {
  id: 'locomotiva-dourada',
  name: { pt: 'Locomotiva dourada', en: 'Golden locomotive', es: 'Locomotora dorada' },
  emoji: '🚂',
};
