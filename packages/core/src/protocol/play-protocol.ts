import { z } from 'zod';
import { GAME_MODELS } from '../models.ts';
import { playRulesSchema, realityCheckSchema } from '../protection/protection-schemas.ts';
import { PLAY_ERROR_CODES } from './play-errors.ts';

/**
 * The play protocol between the player's page and the server, over Socket.IO (docs/play-protocol.md).
 * Money here is integer minor units of `currency` (the page formats it with formatMoney).
 * The page connects to the `/play` namespace with `auth: { token }` (the session token of its gameUrl).
 */
export const PLAY_NAMESPACE = '/play';

/** Requests the page emits, each with an acknowledgement callback. */
export const PLAY_REQUESTS = {
  state: 'state',
  buy: 'buy',
  reveal: 'reveal',
  history: 'history',
  realityCheckAck: 'reality-check-ack',
} as const;
/** Events the server pushes. */
export const PLAY_EVENTS = {
  balance: 'balance',
  round: 'round',
  sessionExpired: 'session-expired',
  sessionEnded: 'session-ended',
} as const;

/** How many of the player's last rounds of a game `history` answers (GLI-19's "last game recall"). */
export const HISTORY_ROUNDS = 10;

export const cardCellSchema = z.object({
  symbol: z.string(),
  prizeLevel: z.number().int().min(1).max(8).optional(),
  number: z.number().int().optional(),
});

export const cardSchema = z.object({
  model: z.enum(GAME_MODELS),
  rule: z.string(),
  rows: z.number().int(),
  cols: z.number().int(),
  cells: z.array(cardCellSchema),
  extras: z.array(cardCellSchema),
  winningCells: z.array(z.number().int()),
  winningExtras: z.array(z.number().int()),
});

export const roundStatusSchema = z.enum(['pending', 'open', 'closing', 'closed', 'declined', 'voided']);

/** A round as the page sees it. `prize` is known from the start: the card already shows it. */
export const playRoundSchema = z.object({
  roundId: z.string(),
  status: roundStatusSchema,
  card: cardSchema,
  level: z.number().int().min(0).max(8),
  prize: z.number().int(),
  price: z.number().int(),
  createdAt: z.string(),
  endAt: z.string().nullable(),
  /** True while a won prize is still on its way to the wallet (retried until paid). */
  prizePending: z.boolean(),
});

export const playLevelSchema = z.object({
  level: z.number().int(),
  winners: z.number().int(),
  prize: z.number().int(),
});

/**
 * The player's free cards of the session's game (docs/promotions.md): the cards usable now and
 * when the first of them expires (ISO 8601; null when none). A buy uses one before any is bought.
 */
export const freeCardsStateSchema = z.object({
  count: z.number().int().min(0),
  expireAt: z.string().nullable(),
});

/**
 * The page and play rules in force for the session (CONTRACT §13): the profile's jurisdiction's
 * (core playRulesOf), with what they show: the game's RTP (a fraction, 0.9 = 90 %) and the
 * profile's responsible-gaming page (null: none set).
 */
export const playStateRulesSchema = playRulesSchema.extend({
  rtp: z.number().min(0).max(1),
  responsibleGamingUrl: z.string().nullable(),
});

/**
 * The session's own figures (GB: RTS 13C's elapsed time, 2E's net position), by the reality check's
 * definitions (core realityCheckFigures): `wagered` the prices paid of its rounds whose bet was
 * confirmed, `won` the prizes of its closed rounds, `net` = won − wagered, in minor units, up to
 * `asOf`, the server's clock when it read them (the page's measure of the clocks' offset).
 */
export const sessionFiguresSchema = z.object({
  startedAt: z.string(),
  asOf: z.string(),
  wagered: z.number().int(),
  won: z.number().int(),
  net: z.number().int(),
});

export const playStateSchema = z.object({
  sessionId: z.string(),
  lang: z.enum(['pt', 'en', 'es']),
  returnUrl: z.string().nullable(),
  expireAt: z.string(),
  /** The operator pages the page may talk to with postMessage (docs/contract.md §8). */
  allowedOrigins: z.array(z.string()),
  player: z.object({ id: z.string(), balance: z.number().int().nullable() }),
  game: z.object({
    id: z.string(),
    gameModel: z.enum(GAME_MODELS),
    currency: z.string(),
    price: z.number().int(),
    sampling: z.number().int(),
    levels: z.array(playLevelSchema),
  }),
  /** The player's round in play (from another tab too), to resume with the same card. */
  openRound: playRoundSchema.nullable(),
  freeCards: freeCardsStateSchema,
  rules: playStateRulesSchema,
  /** The session's figures when `rules` show its elapsed time or net position; null otherwise. */
  session: sessionFiguresSchema.nullable(),
});

/**
 * A round's id as the page sends it back: 1 to 100 characters, none a control character. No id has
 * one, and a NUL would reach the database, where PostgreSQL's text cannot hold it (an error, not
 * ROUND_NOT_FOUND).
 */
export const revealRequestSchema = z.object({
  roundId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^\P{Cc}*$/u),
});
/** `buy` and `state` carry nothing: no payload, `{}` or null. Anything else is a page we cannot read. */
export const buyRequestSchema = z.strictObject({}).nullish();
export const stateRequestSchema = buyRequestSchema;
/** `history` carries nothing either: the session names the player and the game. */
export const historyRequestSchema = buyRequestSchema;

/**
 * The arguments each request accepts before its acknowledgement callback, as a tuple: an extra
 * argument is as unreadable as a wrong one, so it is refused rather than ignored.
 */
const emptyRequestArgs = z.union([z.tuple([]), z.tuple([buyRequestSchema])]);
export const playRequestArgsSchemas = {
  state: emptyRequestArgs,
  buy: emptyRequestArgs,
  history: emptyRequestArgs,
  reveal: z.tuple([revealRequestSchema]),
  realityCheckAck: emptyRequestArgs,
} as const satisfies Record<keyof typeof PLAY_REQUESTS, z.ZodType>;

export type PlayRequest =
  | { type: 'state' }
  | { type: 'buy' }
  | { type: 'history' }
  | { type: 'reveal'; roundId: string }
  | { type: 'realityCheckAck' };

/**
 * Reads one request from its event name and the arguments before the acknowledgement; undefined
 * for an unknown event or arguments its schema refuses (the server answers INVALID_REQUEST).
 */
export function parsePlayRequest(event: unknown, args: readonly unknown[]): PlayRequest | undefined {
  switch (event) {
    case PLAY_REQUESTS.state:
    case PLAY_REQUESTS.buy:
    case PLAY_REQUESTS.history:
      return playRequestArgsSchemas[event].safeParse(args).success ? { type: event } : undefined;
    case PLAY_REQUESTS.reveal: {
      const parsed = playRequestArgsSchemas.reveal.safeParse(args);
      return parsed.success ? { type: 'reveal', roundId: parsed.data[0].roundId } : undefined;
    }
    case PLAY_REQUESTS.realityCheckAck:
      return playRequestArgsSchemas.realityCheckAck.safeParse(args).success
        ? { type: 'realityCheckAck' }
        : undefined;
    default:
      return undefined;
  }
}

export const playErrorSchema = z.object({
  code: z.enum(PLAY_ERROR_CODES as [string, ...string[]]),
  message: z.string(),
  /** REALITY_CHECK: the session's figures to show beside "Keep playing" and "Leave" (CONTRACT §13). */
  realityCheck: realityCheckSchema.optional(),
  /** BUY_TOO_SOON: when the next buy may start (ISO time), the jurisdiction's gap after the last one. */
  retryAt: z.string().optional(),
});

export const ackSchema = <T extends z.ZodType>(data: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: playErrorSchema }),
  ]);

/** `freeCards`: what is left after this buy (a free card's round has `price` 0; a bought one's answer says 0 left). */
export const buyAnswerSchema = z.object({
  round: playRoundSchema,
  balance: z.number().int(),
  freeCards: freeCardsStateSchema,
});
export const revealAnswerSchema = z.object({ round: playRoundSchema, balance: z.number().int().nullable() });
/** `reality-check-ack` ("Keep playing"): when the next reality check falls due (ISO time; null: none). */
export const realityCheckAckAnswerSchema = z.object({ realityCheckDueAt: z.string().nullable() });
export const balanceEventSchema = z.object({ balance: z.number().int() });
/**
 * The answer to `history`: the player's last HISTORY_ROUNDS rounds of this game that have a card,
 * newest first, each as the page draws a round (its card, prize, price, status and times).
 */
export const historyAnswerSchema = z.object({ rounds: z.array(playRoundSchema).max(HISTORY_ROUNDS) });
/** Why a session ended: by its operator (SESSION_ENDED) or by the player's exclusion (PLAYER_EXCLUDED). */
export const SESSION_END_CODES = ['SESSION_ENDED', 'PLAYER_EXCLUDED'] as const;
export type SessionEndCode = (typeof SESSION_END_CODES)[number];
/**
 * The page's `<html data-session>` for a session the server knows when it serves the gameUrl: live
 * ('ok'), or how it ended, so the page says so without connecting. Unknown or expired: 'expired'.
 */
export const PAGE_SESSION_STATE = {
  live: 'ok',
  SESSION_ENDED: 'ended',
  PLAYER_EXCLUDED: 'excluded',
} as const;
/** The `session-ended` push, sent just before the server closes the socket; `message` in the session's language. */
export const sessionEndedEventSchema = z.object({ code: z.enum(SESSION_END_CODES), message: z.string() });

export type PlayRound = z.infer<typeof playRoundSchema>;
export type PlayState = z.infer<typeof playStateSchema>;
export type PlayError = z.infer<typeof playErrorSchema>;
export type BuyAnswer = z.infer<typeof buyAnswerSchema>;
export type FreeCardsState = z.infer<typeof freeCardsStateSchema>;
export type RevealAnswer = z.infer<typeof revealAnswerSchema>;
export type RealityCheckAckAnswer = z.infer<typeof realityCheckAckAnswerSchema>;
export type HistoryAnswer = z.infer<typeof historyAnswerSchema>;
export type PlayStateRules = z.infer<typeof playStateRulesSchema>;
export type SessionFigures = z.infer<typeof sessionFiguresSchema>;
export type SessionEndedEvent = z.infer<typeof sessionEndedEventSchema>;
export type Ack<T> = { ok: true; data: T } | { ok: false; error: PlayError };
