import { toMajor, toMinor } from '@raspa/core';
import { canonicalBody, SIGNATURE_HEADER, signCanonical } from '@raspa/core/signer';
import { SETTING_DEFAULTS } from '../config.ts';
import type { Logger } from '../logger.ts';
import { outboundRefusal } from '../outbound/outbound-refusal.ts';
import type { Wallet, WalletAnswer, WalletMovement, WalletPlayer, WalletRollback } from './wallet.ts';
import { fetchTransport, type WalletResponse, type WalletTransport } from './wallet-transport.ts';

/** The four calls of the wallet bridge (docs/contract.md §6), each a POST to `{walletUrl}/{call}`. */
export type WalletCall = 'balance' | 'bet' | 'prize' | 'rollback';

export interface HttpWalletOptions {
  /** The profile's walletUrl: any path, with or without a trailing slash. */
  walletUrl: string;
  /** The profile's walletSignatureToken, in clear. Never logged. */
  signatureToken: string;
  timeoutMs?: number;
  /**
   * How calls are sent: the wallet directory passes its pinned agent's (outbound policy);
   * without one, the global fetch (the wallet-check command).
   */
  transport?: WalletTransport;
  logger: Logger;
  /** A test profile's wallet (docs/certification.md): every call's body carries `test: true`. */
  test?: boolean;
}

export const DEFAULT_WALLET_TIMEOUT_MS = SETTING_DEFAULTS.WALLET_TIMEOUT_MS;
/** A wallet answer is a few dozen bytes; anything far larger is not a wallet talking. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * `{walletUrl}/{call}`: the call is appended to the URL's path whether or not it ends with a slash
 * (`https://op.example/raspa` and `https://op.example/raspa/` both give `/raspa/bet`); a query
 * string is kept.
 */
export function walletEndpoint(walletUrl: string, call: WalletCall): string {
  return endpointUrl(walletUrl, call).href;
}

function endpointUrl(walletUrl: string, call: WalletCall): URL {
  const url = new URL(walletUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${call}`;
  url.username = '';
  url.password = '';
  return url;
}

/**
 * A walletUrl may carry `user:password@` for an operator behind HTTP basic auth: fetch refuses
 * such URLs, so they travel as an Authorization header instead.
 */
export function basicAuthorization(walletUrl: string): string | undefined {
  const url = new URL(walletUrl);
  if (!url.username && !url.password) return undefined;
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

/** The JSON body of a call, amounts in major units (docs/contract.md §6). */
export function walletBody(
  call: WalletCall,
  request: WalletPlayer | WalletMovement | WalletRollback,
  options: { test?: boolean } = {},
): Record<string, unknown> {
  const player = {
    sessionId: request.sessionId,
    userId: request.userId,
    credential: request.credential,
    currency: request.currency,
    // Left out of a real profile's calls, so its wallet sees no change.
    ...(options.test && { test: true }),
  };
  if (call === 'balance' || !('transactionId' in request)) return player;
  const body: Record<string, unknown> = {
    transactionId: request.transactionId,
    roundId: request.roundId,
    ...player,
    amount: toMajor(request.amountMinor, request.currency),
    gameId: request.gameId,
    gameModel: request.gameModel,
  };
  if (call === 'rollback' && 'originalTransactionId' in request) {
    body.originalTransactionId = request.originalTransactionId;
  }
  // Left out of a bought card's prize, so a wallet that knows nothing of promotions sees no change.
  if (call === 'prize' && request.promotionId !== undefined) body.promotionId = request.promotionId;
  return body;
}

/**
 * The operator's wallet over HTTP. Every call is a signed JSON POST; the answer is classified as
 * ok, declined (a definite no) or unknown (the money may or may not have moved), and never thrown:
 * the play service decides what an unknown means for a bet (roll back) or a prize (retry).
 */
export function createHttpWallet(options: HttpWalletOptions): Wallet {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS;
  const transport = options.transport ?? fetchTransport();
  const { logger, signatureToken } = options;
  // Only for logs: no user:password that may sit in the URL, no query string.
  const where = safeForLogs(options.walletUrl);
  // Worked out once: a bad walletUrl is the same error on every call, sent nowhere.
  let target: { authorization: string | undefined; url: Record<WalletCall, URL> } | Error;
  try {
    const url = (call: WalletCall) => endpointUrl(options.walletUrl, call);
    target = {
      authorization: basicAuthorization(options.walletUrl),
      url: { balance: url('balance'), bet: url('bet'), prize: url('prize'), rollback: url('rollback') },
    };
  } catch (error) {
    target = error instanceof Error ? error : new Error(String(error));
  }

  async function post(
    call: WalletCall,
    request: WalletPlayer | WalletMovement | WalletRollback,
  ): Promise<WalletAnswer> {
    let text: string;
    let signature: string;
    let endpoint: URL;
    let authorization: string | undefined;
    try {
      if (target instanceof Error) throw target;
      endpoint = target.url[call];
      authorization = target.authorization;
      // The canonical text is both what is signed and what is sent, so a receiver that verifies
      // over the raw bytes and one that re-canonicalises the parsed JSON agree.
      text = canonicalBody(walletBody(call, request, { test: options.test === true }));
      signature = signCanonical(text, signatureToken);
    } catch (error) {
      // A bad walletUrl or amount: a bug or a misconfiguration, and nothing was sent.
      return { kind: 'unknown', reason: `request not sent: ${errorText(error)}` };
    }
    // A plain timer: AbortSignal.timeout() costs a transferable object per call (seen in profiles).
    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new DOMException('timed out', 'TimeoutError')),
      timeoutMs,
    );
    try {
      // A 3xx is an answer to classify (unknown): no transport follows it with a signed body.
      const response = await transport({
        url: endpoint,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signature,
          ...(authorization && { authorization }),
        },
        body: text,
        signal: controller.signal,
      });
      return classify(response.status, await readAnswer(response), request.currency);
    } catch (error) {
      return { kind: 'unknown', reason: failureReason(error, timeoutMs) };
    } finally {
      clearTimeout(deadline);
    }
  }

  async function send(
    call: WalletCall,
    request: WalletPlayer | WalletMovement | WalletRollback,
  ): Promise<WalletAnswer> {
    const started = Date.now();
    const transactionId = 'transactionId' in request ? request.transactionId : undefined;
    const answer = await post(call, request);
    const fields = {
      wallet: where,
      call,
      ...(transactionId !== undefined && { transactionId }),
      kind: answer.kind,
      ms: Date.now() - started,
    };
    if (answer.kind === 'unknown')
      logger.warn('wallet call without a definite answer', { ...fields, reason: answer.reason });
    else if (answer.kind === 'declined')
      logger.info('wallet declined', { ...fields, code: answer.code, status: answer.httpStatus });
    else logger.debug('wallet call', fields);
    return answer;
  }

  return {
    balance: (player) => send('balance', player),
    bet: (movement) => send('bet', movement),
    prize: (movement) => send('prize', movement),
    rollback: (movement) => send('rollback', movement),
  };
}

type ReadAnswer = { json: true; value: unknown } | { json: false; detail: string };

/** Reads at most MAX_ANSWER_BYTES of the answer and parses it as JSON. */
async function readAnswer(response: WalletResponse): Promise<ReadAnswer> {
  if (!response.body) return { json: false, detail: 'an empty answer' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early (break) cancels the stream and frees the connection.
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) return { json: false, detail: `an answer over ${MAX_ANSWER_BYTES} bytes` };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { json: false, detail: 'an empty answer' };
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false, detail: 'an answer that is not JSON' };
  }
}

function classify(status: number, read: ReadAnswer, currency: string): WalletAnswer {
  const body = read.json && isRecord(read.value) ? read.value : undefined;
  if (status >= 200 && status < 300) {
    if (!read.json) return { kind: 'unknown', reason: `HTTP ${status} with ${read.detail}` };
    const balance = body?.balance;
    if (typeof balance !== 'number') {
      return { kind: 'unknown', reason: `HTTP ${status} without a numeric balance` };
    }
    const minor = toMinor(balance, currency);
    if (!minor.ok)
      return { kind: 'unknown', reason: `HTTP ${status} with an invalid balance: ${minor.message}` };
    return { kind: 'ok', balanceMinor: minor.minor };
  }
  if (status >= 400 && status < 500) {
    const code = body?.code;
    if (typeof code !== 'string' || code.trim() === '') {
      const what = read.json ? 'without a code' : `with ${read.detail}`;
      return { kind: 'unknown', reason: `HTTP ${status} ${what}` };
    }
    const message = typeof body?.message === 'string' && body.message !== '' ? body.message : code;
    return { kind: 'declined', code, message, httpStatus: status };
  }
  if (status >= 300 && status < 400) {
    return { kind: 'unknown', reason: `HTTP ${status}: redirects are not followed` };
  }
  return { kind: 'unknown', reason: `HTTP ${status}` };
}

function failureReason(error: unknown, timeoutMs: number): string {
  const refused = outboundRefusal(error);
  // Nothing was sent; still not a definite answer, so a bet is rolled back and a prize retried.
  if (refused !== undefined) return `request refused by the outbound policy: walletUrl: ${refused}`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined;
  const detail = cause instanceof Error ? cause.message : errorText(error);
  return `network error: ${code && !detail.includes(code) ? `${code} ` : ''}${detail}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function safeForLogs(walletUrl: string): string {
  try {
    const url = new URL(walletUrl);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'an invalid walletUrl';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
