import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitOverrides } from '../src/config.ts';
import type { Settings } from '../src/deps.ts';
import { createPanelAuthService } from '../src/services/panel-auth-service.ts';
import { solveCaptcha, solvedCaptcha as solvedCaptchaOf } from './captcha-solver.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { eventually } from './play-fixtures.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

const PANEL_URL = 'https://panel.example/reset';
const PASSWORD = 'correct horse battery';
const FORGOT_ANSWER = {
  status: 'success',
  messages: ['If an account exists for this e-mail, a link to reset the password has been sent.'],
};
const CAPTCHA_MESSAGE =
  'captcha: is wrong, has expired or was already used; get a new one from GET /v1/auth/captcha';
const TOKEN_MESSAGE =
  'token: is not valid, has expired or was already used; ask for a new link with forgot-password';

/** Limits out of the way: rate-limits.test.ts checks them. */
const wideLimits: RateLimitOverrides = Object.fromEntries(
  [
    'captcha',
    'loginPerIp',
    'panelLoginPerIp',
    'forgotPasswordPerIp',
    'forgotPasswordPerEmail',
    'resetPasswordPerIp',
    'changePasswordPerIp',
  ].map((name) => [name, { limit: 10_000 }]),
);

function testSettings(rateLimits: RateLimitOverrides): Settings {
  return {
    publicUrl: 'http://127.0.0.1',
    tokenTtlSeconds: 7200,
    panelUrl: PANEL_URL,
    allowPrivateOutbound: true,
    rateLimits,
  };
}

let sink: SmtpSink;
let server: TestServer;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({
    env: { SMTP_URL: sink.url },
    deps: { settings: testSettings(wideLimits) },
  });
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

const panel = () => server.running.app.services.panel;

/** A solved captcha: a challenge issued as GET /v1/auth/captcha issues it, solved as the widget would. */
const solvedCaptcha = () => solvedCaptchaOf(panel());

const panelLogin = async (email: string, password: string, captcha?: string) =>
  server.call('POST', '/v1/auth/panel-login', {
    body: { email, password, captcha: captcha ?? (await solvedCaptcha()) },
  });

const mailTo = (email: string) => sink.messages.filter((mail) => mail.recipients.includes(email));

/** Asks for a reset link and returns the e-mail that arrived and the token of its link. */
async function requestReset(email: string, options: { lang?: string; header?: string } = {}) {
  const before = mailTo(email).length;
  const answer = await server.call('POST', '/v1/auth/forgot-password', {
    body: { email, captcha: await solvedCaptcha(), ...(options.lang && { lang: options.lang }) },
    ...(options.header && { headers: { 'x-user-language': options.header } }),
  });
  expect(answer).toMatchObject({ status: 200, body: FORGOT_ANSWER });
  await panel().settled();
  const mail = await sink.waitFor((received) => mailTo(email).indexOf(received) === before);
  const token = /\?token=([\w-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no reset link in ${mail.text}`);
  return { mail, token };
}

/** A payload as JSON and back, to change one part of it as an attacker would. */
const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64');

describe('GET /v1/auth/captcha', () => {
  it('issues a signed ALTCHA challenge (proof of work: nothing to read or type), not cached', async () => {
    const answer = await server.call('GET', '/v1/auth/captcha');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: {
        parameters: {
          algorithm: 'PBKDF2/SHA-256',
          nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
          salt: expect.stringMatching(/^[0-9a-f]+$/),
          cost: 1, // the test servers' (captcha-solver.ts EASY_CAPTCHA)
          keyLength: 32,
          keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/),
          keySignature: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // The widget's payload for it signs in.
    const { email } = await server.newClient();
    expect((await panelLogin(email, PASSWORD, await solveCaptcha(answer.body.data))).status).toBe(200);
  });
});

describe('POST /v1/auth/panel-login', () => {
  it('answers a token set for the right e-mail (any case), password and captcha', async () => {
    const { email } = await server.newClient();
    const answer = await panelLogin(email.toUpperCase(), PASSWORD);
    expect(answer).toEqual({
      status: 200,
      headers: expect.anything(),
      body: {
        status: 'success',
        data: {
          accessToken: expect.stringMatching(/^[\w-]{43}$/),
          signatureToken: expect.any(String),
          expireAt: expect.any(String),
        },
      },
    });
    expect((await server.call('GET', '/v1/profile', { token: answer.body.data })).status).toBe(200);
  });

  it('refuses a wrong password and an unknown e-mail with the same 401', async () => {
    const { email } = await server.newClient();
    const refusal = {
      status: 401,
      body: { status: 'error', code: 'UNAUTHORIZED', messages: ['email or password is not valid'] },
    };
    expect(await panelLogin(email, 'not the password')).toMatchObject(refusal);
    expect(await panelLogin('nobody@example.test', PASSWORD)).toMatchObject(refusal);
  });

  it('refuses a wrong, tampered, forged, malformed, replayed or expired captcha before looking at the password, and changes nothing', async () => {
    const { email, clientId } = await server.newClient();
    const refused = {
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages: [CAPTCHA_MESSAGE] },
    };
    const good = await solvedCaptcha();
    const payload = decode(good);
    const { parameters } = payload.challenge;
    const flipped = `${payload.solution.derivedKey.slice(0, -1)}${payload.solution.derivedKey.endsWith('0') ? '1' : '0'}`;
    const wrong = encode({ ...payload, solution: { ...payload.solution, derivedKey: flipped } });
    // Made easier after it was signed: a key prefix of one byte anyone finds in a few tries.
    const tampered = encode({
      ...payload,
      challenge: { ...payload.challenge, parameters: { ...parameters, keyPrefix: '00' } },
    });
    // Signed with a key that is not this service's.
    const forged = await solveCaptcha(
      await createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: 1,
        counter: 1,
        deriveKey,
        hmacSignatureSecret: 'guessed',
      }),
    );
    for (const token of [wrong, tampered, forged, 'not a payload', encode({ challenge: {}, solution: {} })]) {
      expect(await panelLogin(email, PASSWORD, token)).toMatchObject(refused);
    }
    // None of them used the challenge up: its own payload still signs in, once; a replay is refused.
    expect((await panelLogin(email, PASSWORD, good)).status).toBe(200);
    expect(await panelLogin(email, PASSWORD, good)).toMatchObject(refused);

    const expiring = await solvedCaptcha();
    server.clock.advance(10 * 60 * 1000);
    expect(await panelLogin(email, PASSWORD, expiring)).toMatchObject(refused);
    // only the one good login made a token set
    const sets = await server.deps.store.clients.revokeTokenSets(clientId, new Date(0).toISOString());
    expect(sets).toBe(2); // the harness's API-key login and the one panel login
  });

  it('checks a challenge one instance issued at another, once: used challenges are in the shared store', async () => {
    const { email } = await server.newClient();
    const elsewhere = createPanelAuthService(server.deps); // another instance: same store, same server key
    const token = await solvedCaptcha();
    expect(
      (await elsewhere.panelLogin({ email, password: PASSWORD, captcha: token }, '127.0.0.2')).expireAt,
    ).toEqual(expect.any(String));
    expect(await panelLogin(email, PASSWORD, token)).toMatchObject({
      status: 400,
      body: { messages: [CAPTCHA_MESSAGE] },
    });
  });

  it.each([
    [{}, ['email is required', 'password is required', 'captcha is required']],
    [{ email: 'not-an-email', password: 'x', captcha: 'a:b' }, ['email: must be an e-mail address']],
    [{ email: 5, password: 'x', captcha: 'a:b' }, ['email: must be a string']],
    [{ email: 'a@example.test', password: '', captcha: 'a:b' }, ['password: must not be empty']],
    [{ email: 'a@example.test', password: 'x', captcha: 5 }, ['captcha: must be a string']],
    [{ email: 'a@example.test', password: 'x', captcha: '' }, ['captcha: must not be empty']],
  ])('validates %o', async (body, messages) => {
    expect(await server.call('POST', '/v1/auth/panel-login', { body })).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages },
    });
  });
});

describe('forgot-password → e-mail → reset-password', () => {
  it.each([
    ['pt', { lang: 'pt' }, 'Redefina sua senha do Raspa', ['Olá', 'Escolher uma nova senha']],
    ['es', { header: 'es-AR' }, 'Restablece tu contraseña de Raspa', ['Hola', 'Elegir una nueva contraseña']],
    ['en', {}, 'Reset your Raspa password', ['Hello', 'Choose a new password']],
    ['pt', { lang: 'pt', header: 'es' }, 'Redefina sua senha do Raspa', ['Olá']],
  ])(
    'in %s (%o): a localized e-mail whose link resets the password and signs every session out',
    async (lang, choice, subject, words) => {
      const { email, tokens } = await server.newClient('Operadora Ñandú & Cia');
      const { mail, token } = await requestReset(email, choice);

      expect(mail.to).toBe(email);
      expect(mail.subject).toBe(subject);
      expect(mail.html).toContain(`<html lang="${lang}">`);
      expect(mail.html).toContain('Operadora Ñandú &#38; Cia');
      for (const word of words) {
        expect(mail.html).toContain(word);
        expect(mail.text).toContain(word);
      }
      expect(mail.html).toContain(`href="${PANEL_URL}?token=${token}"`);
      expect(mail.text).toContain(`${PANEL_URL}?token=${token}`);
      expect(mail.html).not.toMatch(/<img|url\(/i);
      expect(token).toMatch(/^[\w-]{43}$/); // 32 random bytes

      const reset = await server.call('POST', '/v1/auth/reset-password', {
        body: { token, newPassword: 'a brand new secret' },
      });
      expect(reset).toMatchObject({
        status: 200,
        body: {
          status: 'success',
          messages: [
            'The password has been reset and every session of this account was signed out; log in with the new password.',
          ],
        },
      });
      expect((await server.call('GET', '/v1/profile', { token: tokens })).status).toBe(401);
      expect((await panelLogin(email, PASSWORD)).status).toBe(401);
      expect((await panelLogin(email, 'a brand new secret')).status).toBe(200);
      expect(
        await server.call('POST', '/v1/auth/reset-password', {
          body: { token, newPassword: 'yet another one' },
        }),
      ).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', messages: [TOKEN_MESSAGE] } });
      expect((await panelLogin(email, 'a brand new secret')).status).toBe(200);
    },
  );

  it('refuses a link after 30 minutes, and leaves the password as it was', async () => {
    const { email } = await server.newClient();
    const { token } = await requestReset(email);
    server.clock.advance(30 * 60 * 1000);
    expect(
      await server.call('POST', '/v1/auth/reset-password', { body: { token, newPassword: 'too late now' } }),
    ).toMatchObject({ status: 400, body: { messages: [TOKEN_MESSAGE] } });
    expect((await panelLogin(email, PASSWORD)).status).toBe(200);
  });

  it('keeps only the newest link alive', async () => {
    const { email } = await server.newClient();
    const first = await requestReset(email);
    const second = await requestReset(email);
    const reset = (token: string) =>
      server.call('POST', '/v1/auth/reset-password', { body: { token, newPassword: 'the newest one' } });
    expect((await reset(first.token)).status).toBe(400);
    expect((await reset(second.token)).status).toBe(200);
  });

  it('keeps reset tokens only as digests', async () => {
    const { email } = await server.newClient();
    const { token } = await requestReset(email);
    const files = readdirSync(server.dataDir).filter((name) => name.startsWith('raspa.sqlite'));
    const stored = files.map((name) => readFileSync(join(server.dataDir, name)).toString('latin1')).join('');
    expect(stored).not.toContain(token);
  });
});

describe('POST /v1/auth/forgot-password', () => {
  it('answers an unknown e-mail exactly like a known one, without waiting for the e-mail, and sends nothing', async () => {
    const { email } = await server.newClient();
    const unknown = 'nobody-here@example.test';
    const forgot = async (address: string) =>
      server.call('POST', '/v1/auth/forgot-password', {
        body: { email: address, captcha: await solvedCaptcha() },
      });
    // The answer must not take longer for a known e-mail (that would tell which e-mails have an
    // account): it must not wait for the e-mail to go out. The SMTP sink holds every message, so the
    // known e-mail's answer can only arrive while its message is still held. (Not a timing test:
    // the wall clock says nothing on a loaded machine; the order of events does.)
    sink.hold();
    try {
      const known = await forgot(email);
      const missing = await forgot(unknown);
      expect(known.body).toEqual(FORGOT_ANSWER);
      expect(missing.body).toEqual(known.body);
      expect(missing.status).toBe(known.status);
      expect(mailTo(email)).toEqual([]); // answered, and the e-mail not yet handed over
      let settled = false;
      const settling = panel()
        .settled()
        .then(() => {
          settled = true;
        });
      await eventually(() => sink.waiting >= 1); // the e-mail was on its way when we answered
      expect(settled).toBe(false);
      sink.release();
      await settling;
    } finally {
      sink.release();
    }
    expect(mailTo(unknown)).toEqual([]);
    expect(mailTo(email).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a bad captcha and sends nothing', async () => {
    const { email } = await server.newClient();
    expect(
      await server.call('POST', '/v1/auth/forgot-password', { body: { email, captcha: 'x:WRONG' } }),
    ).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', messages: [CAPTCHA_MESSAGE] } });
    await panel().settled();
    expect(mailTo(email)).toEqual([]);
  });

  it.each([
    [{}, ['email is required', 'captcha is required']],
    [{ email: 'nope', captcha: 'a:b' }, ['email: must be an e-mail address']],
    [{ email: 'a@example.test', captcha: 'a:b', lang: 'fr' }, ['lang: must be pt, en or es']],
    [{ email: 'a@example.test', captcha: ['a:b'] }, ['captcha: must be a string']],
  ])('validates %o', async (body, messages) => {
    expect(await server.call('POST', '/v1/auth/forgot-password', { body })).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages },
    });
  });
});

describe('POST /v1/auth/reset-password', () => {
  it.each([
    [{}, ['token is required', 'newPassword is required']],
    [{ token: 'x', newPassword: 'short' }, ['newPassword: must be at least 8 characters']],
    [{ token: '', newPassword: 'long enough' }, ['token: must not be empty']],
    [{ token: 'not-a-token', newPassword: 'long enough' }, [TOKEN_MESSAGE]],
  ])('refuses %o', async (body, messages) => {
    expect(await server.call('POST', '/v1/auth/reset-password', { body })).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages },
    });
  });
});

describe('POST /v1/auth/change-password', () => {
  it('changes the password with the bearer token alone and signs every session out', async () => {
    const { email, tokens, apiKey } = await server.newClient();
    const other = (await server.call('POST', '/v1/auth/login', { body: { apiKey } })).body.data;
    const answer = await server.call('POST', '/v1/auth/change-password', {
      token: tokens,
      sign: false,
      body: { currentPassword: PASSWORD, newPassword: 'changed on purpose' },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: {
        status: 'success',
        messages: [
          'The password has been changed and every session of this account was signed out, this one included; log in again.',
        ],
      },
    });
    expect((await server.call('GET', '/v1/profile', { token: tokens })).status).toBe(401);
    expect((await server.call('GET', '/v1/profile', { token: other })).status).toBe(401);
    expect((await panelLogin(email, PASSWORD)).status).toBe(401);
    expect((await panelLogin(email, 'changed on purpose')).status).toBe(200);
    // the API key still logs in
    expect((await server.call('POST', '/v1/auth/login', { body: { apiKey } })).status).toBe(200);
  });

  it('refuses a wrong current password with 401 and changes nothing', async () => {
    const { email, tokens } = await server.newClient();
    expect(
      await server.call('POST', '/v1/auth/change-password', {
        token: tokens,
        body: { currentPassword: 'not it at all', newPassword: 'changed on purpose' },
      }),
    ).toMatchObject({
      status: 401,
      body: { status: 'error', code: 'UNAUTHORIZED', messages: ['currentPassword is not correct'] },
    });
    expect((await server.call('GET', '/v1/profile', { token: tokens })).status).toBe(200);
    expect((await panelLogin(email, PASSWORD)).status).toBe(200);
  });

  it('needs a bearer token', async () => {
    expect(
      await server.call('POST', '/v1/auth/change-password', {
        body: { currentPassword: PASSWORD, newPassword: 'changed on purpose' },
      }),
    ).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', messages: ['Authorization: Bearer <accessToken> is required'] },
    });
  });

  it.each([
    [{}, ['currentPassword is required', 'newPassword is required']],
    [{ currentPassword: PASSWORD, newPassword: 'short' }, ['newPassword: must be at least 8 characters']],
    [
      { currentPassword: PASSWORD, newPassword: PASSWORD },
      ['newPassword: must be different from currentPassword'],
    ],
    [{ currentPassword: '', newPassword: 'long enough' }, ['currentPassword: must not be empty']],
  ])('validates %o', async (body, messages) => {
    const { tokens } = await server.newClient();
    expect(await server.call('POST', '/v1/auth/change-password', { token: tokens, body })).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages },
    });
    expect((await server.call('GET', '/v1/profile', { token: tokens })).status).toBe(200);
  });
});

describe('the audit log of sign-ins and passwords', () => {
  it('records API-key and panel sign-ins (refused ones too, never the password), reset requests, changes and resets', async () => {
    const { email, apiKey } = await server.newClient(); // newClient logs in with its API key: an entry
    const wrong = 'not the password 123';
    expect((await panelLogin(email, wrong)).status).toBe(401);
    const signedIn = await panelLogin(email, PASSWORD);
    expect(signedIn.status).toBe(200);
    const changed = await server.call('POST', '/v1/auth/change-password', {
      token: signedIn.body.data,
      body: { currentPassword: PASSWORD, newPassword: 'a new password 456' },
    });
    expect(changed.status).toBe(200);
    // A reset asked with a wrong captcha is refused, and recorded once the answer has gone out.
    const refused = await server.call('POST', '/v1/auth/forgot-password', {
      body: { email, captcha: 'nope:WRONG' },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    await panel().settled();
    const { token } = await requestReset(email);
    const reset = await server.call('POST', '/v1/auth/reset-password', {
      body: { token, newPassword: PASSWORD },
    });
    expect(reset.status).toBe(200);
    // An unknown e-mail's requests belong to no account's log; a refused captcha is no sign-in.
    expect((await panelLogin('nobody@example.test', wrong)).status).toBe(401);
    await server.call('POST', '/v1/auth/forgot-password', {
      body: { email: 'nobody@example.test', captcha: await solvedCaptcha() },
    });
    await panel().settled();
    // A refused API key names no client: it is in no client's log (the service's log has it).
    expect((await server.call('POST', '/v1/auth/login', { body: { apiKey: `${apiKey}x` } })).status).toBe(
      401,
    );
    const api = await server.call('POST', '/v1/auth/login', { body: { apiKey } });
    expect(api.status).toBe(200);

    const fresh = await panelLogin(email, PASSWORD);
    const audit = await server.call('GET', '/v1/audit?pageSize=100', { token: fresh.body.data });
    expect(audit.status).toBe(200);
    const entries = audit.body.data.map((entry: any) => [entry.actor, entry.operation, entry.targetId]);
    expect(entries).toEqual([
      ['panel', 'POST /v1/auth/panel-login', null],
      ['apiKey', 'POST /v1/auth/login', null],
      ['panel', 'POST /v1/auth/reset-password', null],
      ['panel', 'POST /v1/auth/forgot-password', null],
      ['panel', 'POST /v1/auth/forgot-password (refused)', null],
      ['panel', 'POST /v1/auth/change-password', null],
      ['panel', 'POST /v1/auth/panel-login', null],
      ['panel', 'POST /v1/auth/panel-login (refused)', null],
      ['apiKey', 'POST /v1/auth/login', null],
    ]);
    const text = JSON.stringify(audit.body);
    for (const secret of [wrong, PASSWORD, apiKey, token]) expect(text).not.toContain(secret);
    for (const entry of audit.body.data) expect(entry.ip).toMatch(/127\.0\.0\.1/);
  });
});

describe('with no SMTP_URL', () => {
  it('writes the reset e-mail to DATA_DIR/outbox as an .eml file', async () => {
    const local = await startTestServer({ deps: { settings: testSettings(wideLimits) } });
    try {
      const { email } = await local.newClient();
      const forgot = await local.call('POST', '/v1/auth/forgot-password', {
        body: { email, captcha: await solvedCaptchaOf(local.running.app.services.panel), lang: 'es' },
      });
      expect(forgot.body).toEqual(FORGOT_ANSWER);
      await local.running.app.services.panel.settled();
      const outbox = join(local.dataDir, 'outbox');
      const files = readdirSync(outbox);
      expect(files).toEqual([expect.stringMatching(/\.eml$/)]);
      const eml = readFileSync(join(outbox, files[0] as string), 'utf8');
      expect(eml).toContain(`To: ${email}`);
      expect(eml).toMatch(/^Subject: =\?UTF-8\?/m);
      expect(eml).toContain('multipart/alternative');
    } finally {
      await local.close();
    }
  });
});
