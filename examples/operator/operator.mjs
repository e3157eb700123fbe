#!/usr/bin/env node
// A reference operator for Raspa: the wallet the service calls to move a player's money, and a
// receiver for its webhooks. Plain Node 20, no dependencies: read it, run it, copy what you need.
//
//   node examples/operator/operator.mjs --wallet-secret <walletSignatureToken> \
//     --webhook-secret <webhook signatureToken> [--port 4000] [--host 127.0.0.1] \
//     [--starting-balance 1000] [--data-file operator.json]
//
// Every flag can come from the environment instead: PORT, HOST, WALLET_SECRET, WEBHOOK_SECRET,
// STARTING_BALANCE, DATA_FILE. See README.md beside this file.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Standard Webhooks: a delivery older or newer than this is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
const MAX_BODY_BYTES = 100 * 1024;
/** Rules the operator can be told to break, to see the conformance checker fail (never in production). */
export const BREAKABLE_RULES = ['idempotency', 'signature', 'promotion'];

// ---------------------------------------------------------------------------------------------
// Signatures

/**
 * Canonical JSON (Raspa docs/contract.md §2): object keys sorted by UTF-16 code unit (JavaScript's default
 * sort), arrays in order, no whitespace, strings and numbers as JSON.stringify writes them.
 */
export function canonicalJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

/** `x-signed-request`: lowercase hex HMAC-SHA512 of the canonical body, keyed with the secret's UTF-8 bytes. */
export function signBody(body, secret) {
  return createHmac('sha512', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(canonicalJson(body), 'utf8'))
    .digest('hex');
}

/** True only if `header` is the `x-signed-request` of `body`; compared in constant time. */
export function verifySignedRequest(body, secret, header) {
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{128}$/.test(header)) return false;
  const expected = Buffer.from(signBody(body, secret), 'hex');
  return timingSafeEqual(Buffer.from(header, 'hex'), expected);
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature` holds one or more
 * space-separated `v1,<base64>` values, each an HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`
 * keyed with the secret's UTF-8 bytes. Returns why it fails, or undefined when it holds.
 */
export function standardWebhookProblem(headers, rawBody, secret, nowSeconds) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
    return {
      code: 'MISSING_HEADERS',
      message: 'webhook-id, webhook-timestamp and webhook-signature are required',
    };
  }
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) {
    return { code: 'STALE_TIMESTAMP', message: 'webhook-timestamp is not within 5 minutes of now' };
  }
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.`)
    .update(rawBody)
    .digest();
  const matches = signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? undefined : { code: 'INVALID_SIGNATURE', message: 'webhook-signature does not match' };
}

// ---------------------------------------------------------------------------------------------
// Money: integers of the currency's minor unit inside, major-unit JSON numbers on the wire.

/** ISO 4217 currencies whose minor unit is not the hundredth; every other code has 2 decimals. */
const EXPONENTS = {
  ...Object.fromEntries(
    'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ),
  ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};
const exponentOf = (currency) => EXPONENTS[currency] ?? 2;

/** 12.5 BRL → 1250; undefined when not a positive amount with at most the currency's decimals. */
export function toMinor(amount, currency) {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(amount));
  if (!match) return undefined; // e.g. 1e-7 or 1e+21
  const exponent = exponentOf(currency);
  const decimals = match[2] ?? '';
  if (decimals.length > exponent) return undefined;
  const minor = BigInt(match[1] + decimals.padEnd(exponent, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : undefined;
}

/** 1250 BRL → 12.5, through the decimal text (no float arithmetic). */
export function toMajor(minor, currency) {
  const exponent = exponentOf(currency);
  if (exponent === 0) return minor;
  const digits = String(minor).padStart(exponent + 1, '0');
  return Number(`${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
}

// ---------------------------------------------------------------------------------------------
// The operator

/**
 * Creates the operator's HTTP server (not yet listening).
 * @param {import('./operator.d.mts').OperatorOptions} options
 * @returns {import('./operator.d.mts').OperatorServer}
 */
export function createOperator(options = {}) {
  const {
    walletSecret,
    webhookSecret,
    startingBalance = 1000,
    dataFile,
    log = (line) => console.log(`${new Date().toISOString()} ${line}`),
    now = () => Date.now(),
    breaks = [],
  } = options;
  if (!Number.isSafeInteger(startingBalance) || startingBalance < 0) {
    throw new RangeError('startingBalance must be a whole, non-negative number of major units');
  }
  for (const rule of breaks) {
    if (!BREAKABLE_RULES.includes(rule)) throw new RangeError(`unknown rule to break: ${rule}`);
  }
  const idempotent = !breaks.includes('idempotency');
  const checksSignatures = !breaks.includes('signature');
  // A wallet that knows nothing of free cards: it refuses a prize naming a promotion.
  const paysFreeCards = !breaks.includes('promotion');

  // State: balances per (currency, credential), every wallet transaction by its id (the
  // idempotency key), and the webhook-ids already processed. A real operator keeps these in its
  // database, the transaction record and the balance change in one database transaction.
  const state = load(dataFile);
  const save = () => {
    if (!dataFile) return;
    writeFileSync(`${dataFile}.tmp`, JSON.stringify(state));
    renameSync(`${dataFile}.tmp`, dataFile);
  };
  const events = [];

  const accountKey = (request) => `${request.currency}:${request.credential}`;
  const openAccount = (request) => {
    const key = accountKey(request);
    state.accounts[key] ??= startingBalance * 10 ** exponentOf(request.currency);
    return key;
  };
  const balanceAnswer = (key, currency) => ({
    status: 200,
    body: { balance: toMajor(state.accounts[key], currency) },
  });
  const refusal = (status, code, message) => ({ status, body: { code, message } });

  /** Runs a money-moving call once per transactionId: a repeat gets the first answer verbatim. */
  function once(request, type, apply) {
    const seen = state.transactions[request.transactionId];
    if (seen && idempotent) return seen.answer;
    const record = {
      type,
      account: accountKey(request),
      amountMinor: request.amountMinor,
      // A free card's prize names its promotion: the operator's cost of the offer, counted apart.
      promotionId: request.promotionId ?? null,
      status: 'applied',
      answer: undefined,
    };
    record.answer = apply(record);
    state.transactions[request.transactionId] = record;
    save();
    return record.answer;
  }

  const wallet = {
    balance(request) {
      const key = openAccount(request);
      save();
      return balanceAnswer(key, request.currency);
    },
    bet: (request) =>
      once(request, 'bet', (record) => {
        const key = openAccount(request);
        if (state.accounts[key] < request.amountMinor) {
          record.status = 'declined';
          return refusal(402, 'INSUFFICIENT_FUNDS', 'The balance is lower than the bet.');
        }
        state.accounts[key] -= request.amountMinor;
        return balanceAnswer(key, request.currency);
      }),
    // A prize needs no bet before it: a free card's round (promotionId in the body) sends none.
    prize: (request) =>
      once(request, 'prize', (record) => {
        if (request.promotionId && !paysFreeCards) {
          record.status = 'declined';
          return refusal(400, 'INVALID_REQUEST', 'Unknown field: promotionId.');
        }
        const key = openAccount(request);
        state.accounts[key] += request.amountMinor;
        return balanceAnswer(key, request.currency);
      }),
    rollback: (request) =>
      once(request, 'rollback', () => {
        const key = openAccount(request);
        const original = state.transactions[request.originalTransactionId];
        if (!original) {
          // Never seen (the bet was lost on the way): nothing to give back. Remember the id, so a
          // bet arriving late with it is refused instead of debiting.
          state.transactions[request.originalTransactionId] = {
            type: 'bet',
            account: key,
            amountMinor: 0,
            status: 'voided',
            answer: refusal(409, 'TRANSACTION_ROLLED_BACK', 'This transaction was rolled back.'),
          };
          return balanceAnswer(key, request.currency);
        }
        if (original.type !== 'bet') return refusal(409, 'NOT_A_BET', 'Only a bet can be rolled back.');
        if (original.account !== key) {
          return refusal(409, 'TRANSACTION_MISMATCH', 'The original transaction is another player’s.');
        }
        if (original.status === 'applied') {
          state.accounts[key] += original.amountMinor;
          original.status = 'rolled-back';
        }
        return balanceAnswer(key, request.currency);
      }),
  };

  async function handleWallet(call, request, response) {
    const raw = await readBody(request);
    if (raw === undefined)
      return send(response, 413, { code: 'PAYLOAD_TOO_LARGE', message: 'Body over 100 KiB.' });
    const body = parseJson(raw);
    if (body === undefined)
      return send(response, 400, { code: 'INVALID_JSON', message: 'The body is not JSON.' });
    if (checksSignatures && !verifySignedRequest(body, walletSecret, request.headers['x-signed-request'])) {
      log(`wallet ${call}: refused, bad x-signed-request`);
      return send(response, 401, { code: 'INVALID_SIGNATURE', message: 'x-signed-request does not match.' });
    }
    const parsed = parseWalletRequest(call, body);
    if (typeof parsed === 'string') return send(response, 400, { code: 'INVALID_REQUEST', message: parsed });
    const repeat = parsed.transactionId !== undefined && parsed.transactionId in state.transactions;
    const answer = wallet[call](parsed);
    const amount =
      (call === 'balance' ? '' : ` amount=${body.amount} ${body.currency}`) +
      (parsed.promotionId ? ` promotion=${parsed.promotionId}` : '');
    log(
      `wallet ${call}${parsed.transactionId ? ` tx=${parsed.transactionId}` : ''} player=${parsed.credential}${amount}` +
        ` → ${answer.status} ${JSON.stringify(answer.body)}${repeat && idempotent ? ' (a repeat: the first answer)' : ''}`,
    );
    send(response, answer.status, answer.body);
  }

  async function handleWebhook(request, response) {
    const raw = await readBody(request);
    if (raw === undefined)
      return send(response, 413, { code: 'PAYLOAD_TOO_LARGE', message: 'Body over 100 KiB.' });
    const body = parseJson(raw);
    if (body === undefined)
      return send(response, 400, { code: 'INVALID_JSON', message: 'The body is not JSON.' });
    // Either scheme alone authenticates the delivery; this receiver checks both to show both.
    if (!verifySignedRequest(body, webhookSecret, request.headers['x-signed-request'])) {
      log('webhook refused: bad x-signed-request');
      return send(response, 401, { code: 'INVALID_SIGNATURE', message: 'x-signed-request does not match.' });
    }
    const problem = standardWebhookProblem(request.headers, raw, webhookSecret, Math.floor(now() / 1000));
    if (problem) {
      log(`webhook refused: ${problem.message}`);
      return send(response, 401, problem);
    }
    // A batch webhook (docs/webhooks.md, "Batches") posts {"events": [{id, event, payload}, …]}: its
    // webhook-id is the batch's, each event carries its own id. A single one posts {event, payload}
    // with the event's id as webhook-id. Either way: deduplicate on the event's id.
    const items = Array.isArray(body.events)
      ? body.events
      : [{ id: request.headers['webhook-id'], event: body.event, payload: body.payload }];
    let fresh = 0;
    for (const item of items) {
      // Raspa retries a delivery until it gets a 2xx, with the same event id (a retried batch may
      // hold other events beside it): answer a repeat with a 2xx too, and do nothing twice.
      if (typeof item?.id !== 'string' || state.webhookIds.includes(item.id)) {
        log(`webhook ${item?.id}: already processed`);
        continue;
      }
      state.webhookIds.push(item.id);
      fresh++;
      const payload = item.payload ?? {};
      events.push({ id: item.id, event: item.event, payload });
      // An `anchor` event (opt-in) carries a signed audit anchor: keep it where your own records are.
      if (item.event === 'anchor') log(`webhook anchor seq=${payload.seq} root=${payload.root}`);
      else log(`webhook ${item.event} round=${payload._id} status=${payload.status} prize=${payload.prize}`);
    }
    if (fresh > 0) save();
    if (fresh === 0 && !Array.isArray(body.events)) return send(response, 200, { status: 'duplicate' });
    send(response, 200, { status: 'ok' });
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://operator').pathname;
    const call = /^\/wallet\/(balance|bet|prize|rollback)$/.exec(path)?.[1];
    const route = call
      ? 'wallet'
      : path === '/webhooks/raspa'
        ? 'webhook'
        : path === '/health'
          ? 'health'
          : undefined;
    if (!route) return send(response, 404, { code: 'NOT_FOUND', message: `Nothing at ${path}.` });
    if (route === 'health') return send(response, 200, { status: 'ok' });
    if (request.method !== 'POST')
      return send(response, 405, { code: 'METHOD_NOT_ALLOWED', message: 'Use POST.' });
    const secret = route === 'wallet' ? walletSecret : webhookSecret;
    if (!secret)
      return send(response, 503, { code: 'NOT_CONFIGURED', message: `No ${route} secret is set.` });
    const work =
      route === 'wallet' ? handleWallet(call, request, response) : handleWebhook(request, response);
    work.catch((error) => {
      log(`error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) send(response, 500, { code: 'INTERNAL_ERROR', message: 'Something broke.' });
    });
  });
  server.operator = {
    balanceOf: (credential, currency) => {
      const minor = state.accounts[`${currency}:${credential}`];
      return minor === undefined ? undefined : toMajor(minor, currency);
    },
    transactionOf: (transactionId) => {
      const record = state.transactions[transactionId];
      if (!record) return undefined;
      const currency = record.account.slice(0, 3);
      return {
        type: record.type,
        amount: toMajor(record.amountMinor, currency),
        currency,
        promotionId: record.promotionId ?? null,
        status: record.status,
      };
    },
    events,
  };
  return server;
}

/** Validates a wallet call's body; returns the request with the amount in minor units, or why not. */
function parseWalletRequest(call, body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'The body must be a JSON object.';
  const text = (name) => typeof body[name] === 'string' && body[name] !== '';
  if (!text('credential')) return 'credential is required';
  if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency))
    return 'currency must be an ISO 4217 code';
  if (call === 'balance') return { credential: body.credential, currency: body.currency };
  if (!text('transactionId')) return 'transactionId is required';
  if (call === 'rollback' && !text('originalTransactionId')) return 'originalTransactionId is required';
  // Only a prize names a promotion: a free card's round sends no bet, hence nothing to roll back.
  if (body.promotionId !== undefined && (call !== 'prize' || !text('promotionId'))) {
    return call === 'prize'
      ? 'promotionId must be a non-empty string'
      : 'promotionId comes only with a prize';
  }
  const amountMinor = toMinor(body.amount, body.currency);
  if (amountMinor === undefined)
    return `amount must be positive, with at most ${exponentOf(body.currency)} decimals`;
  return {
    transactionId: body.transactionId,
    originalTransactionId: body.originalTransactionId,
    credential: body.credential,
    currency: body.currency,
    amountMinor,
    promotionId: body.promotionId,
  };
}

/** The saved state, or an empty one. Maps keyed by ids from the wire have no prototype, so an id like "constructor" is just an id. */
function load(dataFile) {
  const saved = dataFile && existsSync(dataFile) ? JSON.parse(readFileSync(dataFile, 'utf8')) : {};
  return {
    accounts: Object.assign(Object.create(null), saved.accounts),
    transactions: Object.assign(Object.create(null), saved.transactions),
    webhookIds: saved.webhookIds ?? [],
  };
}

/** The raw body as text, or undefined when it is over MAX_BODY_BYTES. */
async function readBody(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function send(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

// ---------------------------------------------------------------------------------------------
// Command line

function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.PORT ?? '4000' },
      host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
      'wallet-secret': { type: 'string', default: process.env.WALLET_SECRET },
      'webhook-secret': { type: 'string', default: process.env.WEBHOOK_SECRET },
      'starting-balance': { type: 'string', default: process.env.STARTING_BALANCE ?? '1000' },
      'data-file': { type: 'string', default: process.env.DATA_FILE },
      break: { type: 'string', multiple: true, default: [] },
    },
  });
  const walletSecret = values['wallet-secret'];
  const webhookSecret = values['webhook-secret'];
  if (!walletSecret && !webhookSecret) {
    console.error(
      'usage: node examples/operator/operator.mjs --wallet-secret <walletSignatureToken> ' +
        '--webhook-secret <webhook signatureToken> [--port 4000] [--host 127.0.0.1] ' +
        '[--starting-balance 1000] [--data-file operator.json]',
    );
    process.exit(2);
  }
  const server = createOperator({
    walletSecret,
    webhookSecret,
    startingBalance: Number(values['starting-balance']),
    dataFile: values['data-file'],
    breaks: values.break,
  });
  server.listen(Number(values.port), values.host, () => {
    const { address, port } = server.address();
    const base = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
    console.log(`operator listening on ${base}`);
    if (walletSecret) console.log(`  walletUrl for the profile:  ${base}/wallet`);
    else console.log('  wallet off: no --wallet-secret');
    if (webhookSecret) console.log(`  webhook url to register:    ${base}/webhooks/raspa`);
    else console.log('  webhooks off: no --webhook-secret');
    if (values.break.length) console.log(`  BREAKING on purpose: ${values.break.join(', ')}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** True when this file is the program being run (not imported, e.g. by tests). */
function isMain() {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isMain()) main();
