import type { Lang } from '@raspa/browser-kit';

/** The replay page's sentences; English is the reference, the others must have its keys. */
const en = {
  title: 'Round replay',
  readOnly: 'A read-only view of a played round, for customer support.',
  loading: 'Loading the round…',
  round: 'Round',
  status: 'Status',
  price: 'Price',
  prize: 'Prize',
  bought: 'Bought',
  ended: 'Ended',
  notEnded: 'not ended',
  noCard: 'This round has no card: its bet never went through, so no ticket was drawn.',
  expiredTitle: 'This replay link has expired',
  expired: 'Replay links last a few minutes. Ask the back office for a new one.',
  failed: 'The round could not be loaded. Try again in a moment.',
  cardLabel: 'The card as the player saw it, fully scratched: {result}',
  status_open: 'open (not yet scratched)',
  status_closing: 'closing',
  status_closed: 'closed',
  status_declined: 'declined by the wallet',
  status_voided: 'voided (bet given back)',
} as const;

type ReplayStrings = { readonly [K in keyof typeof en]: string };

const pt: ReplayStrings = {
  title: 'Replay da rodada',
  readOnly: 'Visão somente leitura de uma rodada jogada, para o atendimento.',
  loading: 'Carregando a rodada…',
  round: 'Rodada',
  status: 'Situação',
  price: 'Preço',
  prize: 'Prêmio',
  bought: 'Comprada',
  ended: 'Encerrada',
  notEnded: 'não encerrada',
  noCard: 'Esta rodada não tem cartela: a aposta não foi aceita, então nenhum bilhete foi sorteado.',
  expiredTitle: 'Este link de replay expirou',
  expired: 'Os links de replay valem por poucos minutos. Peça um novo ao back office.',
  failed: 'Não foi possível carregar a rodada. Tente de novo em instantes.',
  cardLabel: 'A cartela como o jogador a viu, toda raspada: {result}',
  status_open: 'aberta (ainda não raspada)',
  status_closing: 'encerrando',
  status_closed: 'encerrada',
  status_declined: 'recusada pela carteira',
  status_voided: 'anulada (aposta devolvida)',
};

const es: ReplayStrings = {
  title: 'Repetición de la ronda',
  readOnly: 'Vista de solo lectura de una ronda jugada, para atención al cliente.',
  loading: 'Cargando la ronda…',
  round: 'Ronda',
  status: 'Estado',
  price: 'Precio',
  prize: 'Premio',
  bought: 'Comprada',
  ended: 'Terminada',
  notEnded: 'sin terminar',
  noCard: 'Esta ronda no tiene tarjeta: la apuesta no se aceptó, así que no se sorteó ningún boleto.',
  expiredTitle: 'Este enlace de repetición ha caducado',
  expired: 'Los enlaces de repetición duran unos minutos. Pide uno nuevo al back office.',
  failed: 'No se pudo cargar la ronda. Inténtalo de nuevo en un momento.',
  cardLabel: 'La tarjeta como la vio el jugador, toda raspada: {result}',
  status_open: 'abierta (aún sin raspar)',
  status_closing: 'cerrándose',
  status_closed: 'cerrada',
  status_declined: 'rechazada por la billetera',
  status_voided: 'anulada (apuesta devuelta)',
};

export const REPLAY_STRINGS: { readonly [L in Lang]: ReplayStrings } = { en, pt, es };
