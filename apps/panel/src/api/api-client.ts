import { signBodyWebCrypto } from '@raspa/core';
import type {
  AuditAnchor,
  AuditEntry,
  CaptchaChallenge,
  ChangePassword,
  Delivery,
  DeliveryPagination,
  DeliveryQuery,
  Exclusion,
  ExclusionCreate,
  ForgotPassword,
  Game,
  GameActivation,
  GameCreated,
  GameInput,
  Lang,
  LedgerQuery,
  Limits,
  LimitsUpdate,
  ListedTransaction,
  LiveSession,
  NewApiKey,
  PageQuery,
  Pagination,
  PanelLogin,
  ParSheet,
  Player,
  PlayerFreeCards,
  PlayerQuery,
  Pool,
  Profile,
  ProfileInput,
  ProfileUpdate,
  Promotion,
  PromotionCreate,
  PromotionCreated,
  PromotionPlayersAdded,
  PromotionQuery,
  Redeliver,
  ReplayLink,
  ReportQuery,
  ReportRow,
  ResetPassword,
  ResolveRound,
  Round,
  RoundDetail,
  RoundProof,
  RoundResolution,
  TokenSet,
  Webhook,
  WebhookCreated,
  WebhookInput,
} from '@raspa/server/wire';

/**
 * A page of a list as the api client hands it to the pages: the envelope's `data` as `items`, beside
 * its `pagination`. Hand-written: it is the client's own reshaping, not a shape on the wire.
 */
export interface Page<T, P extends Pagination = Pagination> {
  items: T[];
  pagination: P;
}

/** The header every POST and PUT under /v1 (but /v1/auth/*) carries (docs/contract.md §2). */
const SIGNATURE_HEADER = 'x-signed-request';
/** Makes a signed write safe to send again: the service answers the first answer (docs/api.md). */
const IDEMPOTENCY_HEADER = 'idempotency-key';

/** An answer in the error envelope (docs/contract.md §1), or a request that got no answer at all. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly messages: string[];
  constructor(status: number, code: string, messages: string[]) {
    super(messages.join(' ') || code);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.messages = messages;
  }
}

/** The code of an ApiError for a request that never reached the service (offline, refused…). */
export const NETWORK_ERROR = 'NETWORK_ERROR';

/** A CSV export as the service answered it. */
export interface CsvFile {
  name: string;
  text: string;
}

export interface ApiClientOptions {
  /** The service's origin; '' for the page's own. */
  baseUrl?: string;
  /** The token set of the signed-in user, if any. */
  tokens: () => TokenSet | undefined;
  /** Called when the service answers 401 to a request made with a token set: it has expired or was revoked. */
  onExpired?: () => void;
  /** Sent as X-User-Language (the language of the e-mails and messages). */
  lang?: () => Lang;
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | boolean | undefined>;
type Auth = 'none' | 'bearer' | 'signed';

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  auth: Auth;
  query?: Query;
  body?: unknown;
  /** Sent as Idempotency-Key: a retry of the same write with it changes nothing more. */
  idempotencyKey?: string;
}

interface Envelope {
  status?: string;
  code?: string;
  data?: unknown;
  messages?: string[];
  pagination?: unknown;
}

const queryString = (query: Query = {}) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

const segment = (id: string) => encodeURIComponent(id);

/**
 * Every /v1 operation the panel uses, one function each, in one module: pages call these and never
 * fetch themselves. Bearer and signature headers are added here (writes signed per docs/contract.md
 * §2); an error envelope becomes an ApiError carrying its messages.
 */
export function createApiClient(options: ApiClientOptions) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  /** Sends a request with its bearer and signature headers; a request that got no answer is an ApiError. */
  async function exchange(
    request: Request,
    accept: string,
  ): Promise<{ response: Response; tokens: TokenSet | undefined }> {
    const headers: Record<string, string> = { accept };
    const lang = options.lang?.();
    if (lang) headers['x-user-language'] = lang;
    const tokens = request.auth === 'none' ? undefined : options.tokens();
    if (request.auth !== 'none') {
      if (!tokens) throw new ApiError(401, 'UNAUTHORIZED', ['Sign in first.']);
      headers.authorization = `Bearer ${tokens.accessToken}`;
    }
    if (request.idempotencyKey) headers[IDEMPOTENCY_HEADER] = request.idempotencyKey;
    const writes = request.method === 'POST' || request.method === 'PUT';
    let body: string | undefined;
    if (writes) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body ?? {});
      if (request.auth === 'signed' && tokens) {
        headers[SIGNATURE_HEADER] = await signBodyWebCrypto(request.body ?? {}, tokens.signatureToken);
      }
    }
    try {
      const response = await doFetch(`${baseUrl}/v1${request.path}${queryString(request.query)}`, {
        method: request.method,
        headers,
        credentials: 'omit',
        cache: 'no-store',
        ...(body !== undefined && { body }),
      });
      return { response, tokens };
    } catch {
      throw new ApiError(0, NETWORK_ERROR, []);
    }
  }

  /** The error of an answer that is not a success (an expired token set is also reported). */
  function failure(response: Response, tokens: TokenSet | undefined, envelope: Envelope): ApiError {
    if (response.status === 401 && tokens && envelope.code !== 'INVALID_SIGNATURE') options.onExpired?.();
    return new ApiError(response.status, envelope.code ?? 'INTERNAL_ERROR', envelope.messages ?? []);
  }

  async function send(request: Request): Promise<Envelope> {
    const { response, tokens } = await exchange(request, 'application/json');
    const envelope = (await response.json().catch(() => ({}))) as Envelope;
    if (!response.ok || envelope.status !== 'success') throw failure(response, tokens, envelope);
    return envelope;
  }

  /** A `format=csv` answer: its text and the file name the service gave it. */
  async function csv(request: Request): Promise<CsvFile> {
    const { response, tokens } = await exchange(
      { ...request, query: { ...request.query, format: 'csv' } },
      'text/csv, application/json',
    );
    if (!response.ok) {
      const envelope = (await response.json().catch(() => ({}))) as Envelope;
      throw failure(response, tokens, envelope);
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'export.csv';
    return { name, text: await response.text() };
  }

  /** A file the service sends (the certification pack): its bytes and the name the service gave it. */
  async function file(request: Request): Promise<{ name: string; blob: Blob }> {
    const { response, tokens } = await exchange(request, 'application/zip, application/json');
    if (!response.ok) {
      const envelope = (await response.json().catch(() => ({}))) as Envelope;
      throw failure(response, tokens, envelope);
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    return { name: /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download', blob: await response.blob() };
  }

  const data = async <T>(request: Request) => (await send(request)).data as T;
  const messages = async (request: Request) => (await send(request)).messages ?? [];
  const page = async <T, P extends Pagination = Pagination>(request: Request): Promise<Page<T, P>> => {
    const envelope = await send(request);
    return { items: envelope.data as T[], pagination: envelope.pagination as P };
  };

  return {
    // ---- authentication (panel account)
    captcha: () => data<CaptchaChallenge>({ method: 'GET', path: '/auth/captcha', auth: 'none' }),
    panelLogin: (body: PanelLogin) =>
      data<TokenSet>({ method: 'POST', path: '/auth/panel-login', auth: 'none', body }),
    forgotPassword: (body: ForgotPassword) =>
      messages({ method: 'POST', path: '/auth/forgot-password', auth: 'none', body }),
    resetPassword: (body: ResetPassword) =>
      messages({ method: 'POST', path: '/auth/reset-password', auth: 'none', body }),
    changePassword: (body: ChangePassword) =>
      messages({ method: 'POST', path: '/auth/change-password', auth: 'bearer', body }),
    /** Ends this token set on the service (sign-out): it answers 401 from then on. */
    signOut: () => messages({ method: 'POST', path: '/auth/logout', auth: 'bearer', body: {} }),

    // ---- profiles
    listProfiles: (query: PageQuery = {}) =>
      page<Profile>({ method: 'GET', path: '/profile', auth: 'bearer', query: { ...query } }),
    getProfile: (profileId: string) =>
      data<Profile>({ method: 'GET', path: `/profile/${segment(profileId)}`, auth: 'bearer' }),
    createProfile: (body: ProfileInput) =>
      data<Profile>({ method: 'POST', path: '/profile', auth: 'signed', body }),
    updateProfile: (profileId: string, body: ProfileUpdate) =>
      data<Profile>({ method: 'PUT', path: `/profile/${segment(profileId)}`, auth: 'signed', body }),

    // ---- games
    listGames: (profileId: string) =>
      data<Game[]>({ method: 'GET', path: '/game', auth: 'bearer', query: { profileId } }),
    /** What the service would create (simulation: true): nothing is written. */
    simulateGame: (body: GameInput) =>
      data<GameCreated>({
        method: 'POST',
        path: '/game',
        auth: 'signed',
        body: { ...body, simulation: true },
      }),
    createGame: (body: GameInput) =>
      data<GameCreated>({
        method: 'POST',
        path: '/game',
        auth: 'signed',
        body: { ...body, simulation: false },
      }),
    setGameActive: (gameId: string, body: GameActivation) =>
      send({ method: 'PUT', path: `/game/${segment(gameId)}`, auth: 'signed', body }).then(() => undefined),

    // ---- players
    listPlayers: (query: PlayerQuery) =>
      page<Player>({ method: 'GET', path: '/user', auth: 'bearer', query: { ...query } }),

    // ---- player protection (docs/player-protection.md)
    getLimits: (userId: string) =>
      data<Limits>({ method: 'GET', path: `/user/${segment(userId)}/limits`, auth: 'bearer' }),
    /** Replaces every limit: a stricter one applies at once, a looser one or a removal after 24 h. */
    setLimits: (userId: string, body: LimitsUpdate) =>
      data<Limits>({ method: 'PUT', path: `/user/${segment(userId)}/limits`, auth: 'signed', body }),
    /** The exclusion that holds now, or null. */
    getExclusion: (userId: string) =>
      data<Exclusion | null>({ method: 'GET', path: `/user/${segment(userId)}/exclusion`, auth: 'bearer' }),
    exclude: (userId: string, body: ExclusionCreate) =>
      data<Exclusion>({ method: 'POST', path: `/user/${segment(userId)}/exclusion`, auth: 'signed', body }),
    /** Lifts an operator exclusion (a self one cannot be lifted before it ends: 409). */
    liftExclusion: (userId: string) =>
      send({ method: 'DELETE', path: `/user/${segment(userId)}/exclusion`, auth: 'bearer' }).then(
        () => undefined,
      ),
    /** The player's live sessions, newest first. */
    listSessions: (userId: string, query: PageQuery = {}) =>
      page<LiveSession>({
        method: 'GET',
        path: `/user/${segment(userId)}/sessions`,
        auth: 'bearer',
        query: { ...query },
      }),
    /** Ends a session at once on every instance (its page is told SESSION_ENDED); a repeat changes nothing. */
    endSession: (sessionId: string) =>
      send({ method: 'DELETE', path: `/game/session/${segment(sessionId)}`, auth: 'bearer' }).then(
        () => undefined,
      ),
    freeCards: (userId: string) =>
      data<PlayerFreeCards>({ method: 'GET', path: `/user/${segment(userId)}/free-cards`, auth: 'bearer' }),

    // ---- promotions (docs/promotions.md)
    listPromotions: (query: PromotionQuery = {}) =>
      page<Promotion>({ method: 'GET', path: '/promotion', auth: 'bearer', query: { ...query } }),
    getPromotion: (promotionId: string) =>
      data<Promotion>({ method: 'GET', path: `/promotion/${segment(promotionId)}`, auth: 'bearer' }),
    /** `idempotencyKey`: the same key on a retry creates nothing twice. */
    createPromotion: (body: PromotionCreate, idempotencyKey: string) =>
      data<PromotionCreated>({ method: 'POST', path: '/promotion', auth: 'signed', body, idempotencyKey }),
    addPromotionPlayers: (promotionId: string, players: string[], idempotencyKey: string) =>
      data<PromotionPlayersAdded>({
        method: 'POST',
        path: `/promotion/${segment(promotionId)}/players`,
        auth: 'signed',
        body: { players },
        idempotencyKey,
      }),
    /** Cancels it: its unused cards end; a card in play finishes. Answers the promotion. */
    cancelPromotion: (promotionId: string) =>
      data<Promotion>({ method: 'DELETE', path: `/promotion/${segment(promotionId)}`, auth: 'bearer' }),

    // ---- rounds and transactions
    listRounds: (query: LedgerQuery = {}) =>
      page<Round>({ method: 'GET', path: '/round', auth: 'bearer', query: { ...query } }),
    listTransactions: (query: LedgerQuery = {}) =>
      page<ListedTransaction>({ method: 'GET', path: '/transaction', auth: 'bearer', query: { ...query } }),
    roundsCsv: (query: LedgerQuery = {}) =>
      csv({ method: 'GET', path: '/round', auth: 'bearer', query: { ...query } }),
    transactionsCsv: (query: LedgerQuery = {}) =>
      csv({ method: 'GET', path: '/transaction', auth: 'bearer', query: { ...query } }),
    getRound: (roundId: string) =>
      data<RoundDetail>({ method: 'GET', path: `/round/${segment(roundId)}`, auth: 'bearer' }),
    /** A short-lived read-only link to the round, for support. */
    replayLink: (roundId: string) =>
      data<ReplayLink>({
        method: 'POST',
        path: `/round/${segment(roundId)}/replay`,
        auth: 'signed',
        body: {},
      }),
    /** The round's inclusion proof in a signed audit anchor; an ApiError NOT_ANCHORED until one covers it. */
    roundProof: (roundId: string) =>
      data<RoundProof>({ method: 'GET', path: `/round/${segment(roundId)}/proof`, auth: 'bearer' }),
    /** The client's signed audit anchors from `fromSeq` on, in seq order (docs/audit.md). */
    listAnchors: (fromSeq: number, pageSize: number) =>
      data<AuditAnchor[]>({
        method: 'GET',
        path: '/audit/anchors',
        auth: 'bearer',
        query: { fromSeq, pageSize },
      }),
    listFlagged: (query: PageQuery = {}) =>
      page<Round>({ method: 'GET', path: '/reconciliation', auth: 'bearer', query: { ...query } }),
    resolveRound: (roundId: string, body: ResolveRound) =>
      data<RoundResolution>({
        method: 'POST',
        path: `/round/${segment(roundId)}/resolve`,
        auth: 'signed',
        body,
      }),

    // ---- report
    report: (query: ReportQuery = {}) =>
      data<ReportRow[]>({ method: 'GET', path: '/report', auth: 'bearer', query: { ...query } }),

    // ---- pools
    listPools: (gameId: string) =>
      data<Pool[]>({ method: 'GET', path: `/game/${segment(gameId)}/pools`, auth: 'bearer' }),
    parSheet: (gameId: string) =>
      data<ParSheet>({ method: 'GET', path: `/game/${segment(gameId)}/par-sheet`, auth: 'bearer' }),
    certificationPack: (gameId: string) =>
      file({ method: 'GET', path: `/game/${segment(gameId)}/certification`, auth: 'bearer' }),

    // ---- API access
    /** A new apiKey, shown this once; the old one stops working at once. */
    rotateKey: () => data<NewApiKey>({ method: 'POST', path: '/auth/rotate-key', auth: 'signed', body: {} }),
    listAudit: (query: PageQuery = {}) =>
      page<AuditEntry>({ method: 'GET', path: '/audit', auth: 'bearer', query: { ...query } }),

    // ---- webhooks
    listWebhooks: () => data<Webhook[]>({ method: 'GET', path: '/webhook', auth: 'bearer' }),
    createWebhook: (body: WebhookInput) =>
      data<WebhookCreated>({ method: 'POST', path: '/webhook', auth: 'signed', body }),
    deleteWebhook: (webhookId: string) =>
      send({ method: 'DELETE', path: `/webhook/${segment(webhookId)}`, auth: 'bearer' }).then(
        () => undefined,
      ),
    listDeliveries: (webhookId: string, query: DeliveryQuery = {}) =>
      page<Delivery, DeliveryPagination>({
        method: 'GET',
        path: `/webhook/${segment(webhookId)}`,
        auth: 'bearer',
        query: { ...query },
      }),
    /** Sends one of the webhook's events again now; answers the new attempt's log row. */
    redeliver: (webhookId: string, eventId: string) =>
      data<Delivery>({
        method: 'POST',
        path: `/webhook/${segment(webhookId)}/redeliver`,
        auth: 'signed',
        body: { eventId } satisfies Redeliver,
      }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
