import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitOverrides } from '../src/config.ts';
import type { Settings } from '../src/deps.ts';
import { startTestServer, type TestServer } from './harness.ts';
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

/** Waits until `check` holds (polling), or fails after a bound generous for a loaded machine. */
async function eventuallyTrue(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A solved captcha, issued the way GET /v1/auth/captcha issues it. */
async function solvedCaptcha(): Promise<string> {
  const { captchaId, answer } = await panel().issueCaptcha();
  return `${captchaId}:${answer.toLowerCase()}`;
}

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

describe('GET /v1/auth/captcha', () => {
  it('issues an SVG drawn with paths, no text, not cached, the answer kept only as a digest', async () => {
    const answer = await server.call('GET', '/v1/auth/captcha');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: { captchaId: expect.any(String), image: expect.stringMatching(/^data:image\/svg\+xml;base64,/) },
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const svg = Buffer.from(answer.body.data.image.split(',')[1], 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg [^>]*>.*<path d="M/);
    expect(svg).not.toMatch(/<text|<tspan|font/i);
    expect(svg.match(/<path /g)?.length).toBeGreaterThan(35);
  });

  it('takes one guess: a wrong answer burns the captcha', async () => {
    const { captchaId } = (await server.call('GET', '/v1/auth/captcha')).body.data;
    const { email } = await server.newClient();
    for (const guess of ['WRONG', 'ALSOWRONG']) {
      expect(await panelLogin(email, PASSWORD, `${captchaId}:${guess}`)).toMatchObject({
        status: 400,
        body: { status: 'error', code: 'VALIDATION_ERROR', messages: [CAPTCHA_MESSAGE] },
      });
    }
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

  it('refuses a wrong, reused, expired or malformed captcha before looking at the password', async () => {
    const { email, clientId } = await server.newClient();
    const refused = {
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages: [CAPTCHA_MESSAGE] },
    };
    const { captchaId, answer } = await panel().issueCaptcha();
    expect(await panelLogin(email, PASSWORD, `${captchaId}:${answer}X`)).toMatchObject(refused);

    const reused = await solvedCaptcha();
    expect((await panelLogin(email, PASSWORD, reused)).status).toBe(200);
    expect(await panelLogin(email, PASSWORD, reused)).toMatchObject(refused);

    const expiring = await solvedCaptcha();
    server.clock.advance(10 * 60 * 1000);
    expect(await panelLogin(email, PASSWORD, expiring)).toMatchObject(refused);

    expect(await panelLogin(email, PASSWORD, 'no-colon-here')).toMatchObject(refused);
    expect(await panelLogin(email, PASSWORD, `unknown-id:${answer}`)).toMatchObject(refused);
    // only the one good login made a token set
    const sets = await server.deps.store.clients.revokeTokenSets(clientId, new Date(0).toISOString());
    expect(sets).toBe(2); // the harness's API-key login and the one panel login
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
      await eventuallyTrue(() => sink.waiting >= 1); // the e-mail was on its way when we answered
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
      const { captchaId, answer } = await local.running.app.services.panel.issueCaptcha();
      const forgot = await local.call('POST', '/v1/auth/forgot-password', {
        body: { email, captcha: `${captchaId}:${answer}`, lang: 'es' },
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
