import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { buildLadder, canonicalJson, type Ladder } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/sandbox-config.ts';
import {
  curlCommand,
  gameCreateBody,
  importGameBody,
  PROFILE_ID_PLACEHOLDER,
  shellQuote,
} from './game-body.ts';

function ladderOf(rtp: number, betPrice: number, currency = 'BRL'): Ladder {
  const result = buildLadder({
    gameModel: 'frevo-da-sorte',
    currency,
    rtp,
    sampling: 500_000,
    prizedPercent: 0.35,
    betPrice,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.ladder;
}

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version']);
    return true;
  } catch {
    return false;
  }
})();

describe('gameCreateBody', () => {
  it('is every field of POST /v1/game, a simulation by default, with a placeholder profileId', () => {
    expect(gameCreateBody(ladderOf(0.925, 2.5), 'es')).toEqual({
      profileId: PROFILE_ID_PLACEHOLDER,
      gameModel: 'frevo-da-sorte',
      lang: 'es',
      currency: 'BRL',
      rtp: 0.925,
      sampling: 500_000,
      prizedPercent: 0.35,
      betPrice: 2.5,
      simulation: true,
      replacePreviousVersion: false,
    });
    expect(
      gameCreateBody(ladderOf(0.9, 300, 'JPY'), 'pt', { profileId: 'p1', simulation: false }),
    ).toMatchObject({
      profileId: 'p1',
      betPrice: 300,
      simulation: false,
    });
  });
});

describe('curlCommand', () => {
  const body = gameCreateBody(ladderOf(0.9, 2), 'pt', { profileId: "o'brien" });

  it('sends the canonical body with the signature as a header', () => {
    const command = curlCommand({ serviceUrl: 'http://127.0.0.1:8080/', body, signature: 'ab12' });
    expect(command).toContain(`BODY=${shellQuote(canonicalJson(body))}`);
    expect(command).toContain('SIGNATURE=ab12');
    expect(command).toContain("curl -sS -X POST 'http://127.0.0.1:8080/v1/game'");
    expect(command).toContain('"authorization: Bearer $ACCESS_TOKEN"');
    expect(curlCommand({ serviceUrl: 'http://x', body, accessToken: 't0k' })).toContain(
      "-H 'authorization: Bearer t0k'",
    );
  });

  it.skipIf(!hasOpenssl)(
    'signs in the shell exactly as the service checks: HMAC-SHA512 hex of the canonical JSON',
    () => {
      const command = curlCommand({ serviceUrl: 'http://127.0.0.1:8080', body });
      const [bodyLine, signatureLine] = command.split('\n');
      const out = execFileSync(
        'sh',
        ['-c', `${bodyLine}\n${signatureLine}\nprintf '%s\\n%s' "$BODY" "$SIGNATURE"`],
        {
          env: { PATH: process.env.PATH ?? '', SIGNATURE_TOKEN: 'sïgnature-tøken' },
          encoding: 'utf8',
        },
      );
      const [sentBody, signature] = out.split('\n');
      expect(sentBody).toBe(canonicalJson(body));
      expect(JSON.parse(sentBody ?? '')).toEqual(body);
      expect(signature).toBe(
        createHmac('sha512', 'sïgnature-tøken').update(canonicalJson(body)).digest('hex'),
      );
    },
  );
});

describe('importGameBody', () => {
  const body = gameCreateBody(ladderOf(0.91, 1.5), 'en');

  it('reads a body back into the configuration it came from', () => {
    expect(importGameBody(JSON.stringify(body), DEFAULT_CONFIG)).toEqual({
      ok: true,
      config: {
        ...DEFAULT_CONFIG,
        model: 'frevo-da-sorte',
        lang: 'en',
        rtp: '0.91',
        sampling: '500000',
        prizedPercent: '0.35',
        betPrice: '1.5',
      },
    });
  });

  it('also takes a game from GET /v1/game, in its envelope or not', () => {
    const listed = { ...body, id: 'g1', version: 2, active: true, mediaUrl: 'x', levels: [] };
    const enveloped = importGameBody(JSON.stringify({ status: 'success', data: [listed] }), DEFAULT_CONFIG);
    expect(enveloped).toMatchObject({ ok: true, config: { model: 'frevo-da-sorte', rtp: '0.91' } });
    expect(importGameBody(JSON.stringify(listed), DEFAULT_CONFIG).ok).toBe(true);
  });

  it('says what is wrong, leaving the rules of the values to the ladder', () => {
    expect(importGameBody('{"gameModel": "slot"', DEFAULT_CONFIG)).toMatchObject({
      ok: false,
      messages: [expect.stringMatching(/^not JSON/)],
    });
    expect(importGameBody('[1, 2]', DEFAULT_CONFIG)).toEqual({
      ok: false,
      messages: ['expected a JSON object: the body of POST /v1/game'],
    });
    expect(
      importGameBody(
        JSON.stringify({ ...body, gameModel: 'slot', currency: 'XYZ', rtp: '0.9', sampling: undefined }),
        DEFAULT_CONFIG,
      ),
    ).toEqual({
      ok: false,
      messages: [
        'gameModel: not a game model',
        'currency: not an ISO 4217 code',
        'rtp: must be a number',
        'sampling is required',
      ],
    });
    // Out of bounds is a value the page then explains, not an import error.
    expect(importGameBody(JSON.stringify({ ...body, rtp: 0.99 }), DEFAULT_CONFIG)).toMatchObject({
      ok: true,
      config: { rtp: '0.99' },
    });
  });
});
