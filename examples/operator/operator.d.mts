// Types for operator.mjs, for integrators (and tests) that use it from TypeScript.
import type { IncomingHttpHeaders, Server } from 'node:http';

export interface OperatorOptions {
  /** The profile's walletSignatureToken: verifies `x-signed-request` on /wallet/*. */
  walletSecret?: string | undefined;
  /** The webhook's signatureToken: verifies deliveries on /webhooks/raspa. */
  webhookSecret?: string | undefined;
  /** What a player's account starts with, in whole major units of its currency (default 1000). */
  startingBalance?: number;
  /** A JSON file that keeps balances, transactions and webhook ids across restarts. */
  dataFile?: string | undefined;
  log?: (line: string) => void;
  /** Milliseconds since the epoch, for the webhook timestamp tolerance. */
  now?: () => number;
  /** Rules to break on purpose, to watch the conformance checker fail. */
  breaks?: Array<'idempotency' | 'signature' | 'promotion'>;
}

export interface ReceivedWebhook {
  id: string;
  event: string;
  payload: Record<string, unknown>;
}

export interface RecordedTransaction {
  type: 'bet' | 'prize' | 'rollback';
  /** Major units of `currency`, positive. */
  amount: number;
  currency: string;
  /** The promotion of a free card's prize; null otherwise. */
  promotionId: string | null;
  status: 'applied' | 'declined' | 'rolled-back' | 'voided';
}

export interface OperatorServer extends Server {
  operator: {
    /** A player's balance in major units, or undefined before the account's first use. */
    balanceOf(credential: string, currency: string): number | undefined;
    /** A wallet transaction by its id (a free card's prize with its promotionId), or undefined if never seen. */
    transactionOf(transactionId: string): RecordedTransaction | undefined;
    /** The webhook events received, first to last, each once. */
    events: ReceivedWebhook[];
  };
}

export const WEBHOOK_TOLERANCE_SECONDS: number;
export const BREAKABLE_RULES: readonly string[];
export function createOperator(options?: OperatorOptions): OperatorServer;
export function canonicalJson(value: unknown): string;
export function signBody(body: unknown, secret: string): string;
export function verifySignedRequest(body: unknown, secret: string, header: unknown): boolean;
export function standardWebhookProblem(
  headers: IncomingHttpHeaders,
  rawBody: string,
  secret: string,
  nowSeconds: number,
): { code: string; message: string } | undefined;
export function toMinor(amount: unknown, currency: string): number | undefined;
export function toMajor(minor: number, currency: string): number;
