import { canonicalJson, findCurrency, isGameModel, type Ladder, toMajor } from '@raspa/core';
import {
  type ConfigField,
  configFrom,
  LANGS,
  type Lang,
  type SandboxConfig,
} from '../config/sandbox-config.ts';

/** Stands for the integrator's own profile in an exported body, until they put theirs in. */
export const PROFILE_ID_PLACEHOLDER = 'YOUR_PROFILE_ID';

/** The JSON body of `POST /v1/game` (the spec's Game create request). */
export interface GameCreateBody {
  profileId: string;
  gameModel: string;
  lang: string;
  currency: string;
  rtp: number;
  sampling: number;
  prizedPercent: number;
  betPrice: number;
  simulation: boolean;
  replacePreviousVersion: boolean;
}

export interface BodyOptions {
  profileId?: string;
  /** true (the default): the service computes the ladder and stores nothing. */
  simulation?: boolean;
  replacePreviousVersion?: boolean;
}

/** The body for a ladder, its numbers as the ladder read them (0.900 → 0.9, 2.50 → 2.5). */
export function gameCreateBody(ladder: Ladder, lang: Lang, options: BodyOptions = {}): GameCreateBody {
  return {
    profileId: options.profileId ?? PROFILE_ID_PLACEHOLDER,
    gameModel: ladder.gameModel,
    lang,
    currency: ladder.currency,
    rtp: ladder.rtpPpm / 1_000_000,
    sampling: ladder.sampling,
    prizedPercent: ladder.prizedPpm / 1_000_000,
    betPrice: toMajor(ladder.betPrice, ladder.currency),
    simulation: options.simulation ?? true,
    replacePreviousVersion: options.replacePreviousVersion ?? false,
  };
}

export const DEFAULT_SERVICE_URL = 'http://127.0.0.1:8080';

/** What the curl line is built from; the tokens stay shell variables unless the designer pasted them. */
export interface CurlParts {
  serviceUrl: string;
  body: GameCreateBody;
  /** The x-signed-request value when the page computed it; otherwise openssl computes it in the shell. */
  signature?: string;
  accessToken?: string;
}

/** Quotes a string for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A ready shell snippet: the body in canonical JSON (the exact bytes that are signed), the
 * signature (HMAC-SHA512 hex keyed with the signatureToken, by openssl unless already computed),
 * and the curl call.
 */
export function curlCommand(parts: CurlParts): string {
  const url = `${parts.serviceUrl.replace(/\/+$/, '')}/v1/game`;
  const signatureLine = parts.signature
    ? `SIGNATURE=${parts.signature}`
    : `SIGNATURE=$(printf '%s' "$BODY" | openssl dgst -sha512 -hmac "$SIGNATURE_TOKEN" -r | cut -d' ' -f1)`;
  const bearer = parts.accessToken
    ? shellQuote(`authorization: Bearer ${parts.accessToken}`)
    : '"authorization: Bearer $ACCESS_TOKEN"';
  return [
    `BODY=${shellQuote(canonicalJson(parts.body))}`,
    signatureLine,
    `curl -sS -X POST ${shellQuote(url)} \\`,
    `  -H ${bearer} \\`,
    `  -H 'content-type: application/json' \\`,
    `  -H "x-signed-request: $SIGNATURE" \\`,
    `  --data-raw "$BODY"`,
  ].join('\n');
}

export type ImportResult = { ok: true; config: SandboxConfig } | { ok: false; messages: string[] };

/**
 * A configuration from a pasted `POST /v1/game` body (or a game as `GET /v1/game` lists it, or
 * either inside the API's `{"status", "data"}` envelope). Only the shape is checked here; the
 * values then meet the same rules as typed ones.
 */
export function importGameBody(text: string, base: SandboxConfig): ImportResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, messages: [`not JSON: ${(error as Error).message}`] };
  }
  let body = parsed;
  if (isObject(body) && typeof body.data === 'object' && !('gameModel' in body)) body = body.data;
  if (Array.isArray(body) && body.length === 1) body = body[0];
  if (!isObject(body)) return { ok: false, messages: ['expected a JSON object: the body of POST /v1/game'] };

  const messages: string[] = [];
  const values: Partial<Record<ConfigField, string>> = {};
  const word = (name: string, field: ConfigField, check: (value: string) => boolean, rule: string) => {
    const value = body[name];
    if (value === undefined) messages.push(`${name} is required`);
    else if (typeof value !== 'string' || !check(value)) messages.push(`${name}: ${rule}`);
    else values[field] = value;
  };
  const number = (name: string, field: ConfigField) => {
    const value = body[name];
    if (value === undefined) messages.push(`${name} is required`);
    else if (typeof value !== 'number' || !Number.isFinite(value)) messages.push(`${name}: must be a number`);
    else values[field] = String(value);
  };
  word('gameModel', 'model', isGameModel, 'not a game model');
  word(
    'currency',
    'currency',
    (value) => findCurrency(value.toUpperCase()) !== undefined,
    'not an ISO 4217 code',
  );
  number('rtp', 'rtp');
  number('sampling', 'sampling');
  number('prizedPercent', 'prizedPercent');
  number('betPrice', 'betPrice');
  if (typeof body.lang === 'string' && (LANGS as readonly string[]).includes(body.lang))
    values.lang = body.lang;
  if (messages.length > 0) return { ok: false, messages };
  return { ok: true, config: configFrom(values, base) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
