/** Every error code of docs/contract.md §1 and its HTTP status: one table, used by one error middleware. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  INVALID_SIGNATURE: 401,
  /** An excluded player may not start a session (CONTRACT §13, docs/player-protection.md). */
  PLAYER_EXCLUDED: 403,
  NOT_FOUND: 404,
  /** A round that no audit anchor covers yet (docs/audit.md): asked again after the next anchor. */
  NOT_ANCHORED: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  WALLET_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An expected failure a client can act on; anything else thrown is a bug and becomes INTERNAL_ERROR. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly messages: string[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    messages: string | string[],
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '), { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.messages = list;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export interface ErrorBody {
  status: 'error';
  code: ErrorCode;
  messages: string[];
}

export function errorBody(error: ApiError): ErrorBody {
  return { status: 'error', code: error.code, messages: error.messages };
}
