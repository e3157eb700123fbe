#!/usr/bin/env node
// The integrator's main flow in one file, with nothing but Node 20: log in, create a profile,
// a game, a player and a session, and print the gameUrl to give the player.
//   node examples/integrator-quickstart.mjs http://127.0.0.1:8080 <apiKey>
import { createHmac } from 'node:crypto';

const [baseUrl = 'http://127.0.0.1:8080', apiKey = process.env.RASPA_API_KEY] = process.argv.slice(2);
if (!apiKey) {
  console.error('usage: node examples/integrator-quickstart.mjs <baseUrl> <apiKey>');
  process.exit(2);
}

// Canonical JSON (docs/contract.md §2): keys sorted by UTF-16 code unit, arrays in order, no whitespace.
const canonical = (value) => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
};
const sign = (body, signatureToken) =>
  createHmac('sha512', signatureToken)
    .update(body === undefined ? '{}' : canonical(body))
    .digest('hex');

let tokens;
async function call(method, path, body) {
  const headers = { 'content-type': 'application/json' };
  if (tokens) headers.authorization = `Bearer ${tokens.accessToken}`;
  if (tokens && (method === 'POST' || method === 'PUT') && !path.startsWith('/v1/auth/')) {
    headers['x-signed-request'] = sign(body, tokens.signatureToken);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body && JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

tokens = (await call('POST', '/v1/auth/login', { apiKey })).data;
console.log(`logged in; the token set expires at ${tokens.expireAt}`);

const profile = (
  await call('POST', '/v1/profile', { name: 'Quickstart casino', type: 'demo', currency: 'BRL' })
).data;
console.log(`profile ${profile.profileId} (${profile.type}, ${profile.currency})`);

const gameConfig = {
  profileId: profile.profileId,
  gameModel: 'frevo-da-sorte',
  lang: 'pt',
  currency: 'BRL',
  rtp: 0.92,
  sampling: 500000,
  prizedPercent: 0.35,
  betPrice: 1.5,
  simulation: false,
  replacePreviousVersion: true,
};
const game = (await call('POST', '/v1/game', gameConfig)).data;
console.log(
  `game ${game.id} v${game.version}: top prize ${game.levels.at(-1).prize} ${gameConfig.currency}, ${game.totalPrized} winning tickets`,
);

const player = (
  await call('POST', '/v1/user/auth', {
    profileId: profile.profileId,
    credential: 'maria@example.com',
    credentialType: 'email',
  })
).data;
console.log(`player ${player.userId}`);

const session = (
  await call('POST', '/v1/game/session', { userToken: player.userToken, gameId: game.id, lang: 'pt' })
).data;
console.log(`session ${session.sessionId}\ngameUrl: ${session.gameUrl}`);
