import type { Request } from 'express';
import { z } from 'zod';
import { LANGS, lang, messagesBody, successStatus } from '../../schemas/common.ts';
import { captchaChallengeSchema } from '../../security/captcha-verifier.ts';
import { clientIp } from '../client-ip.ts';
import { ok, okMessages } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';
import { tokenSetSchema } from './auth-routes.ts';

const text = (max: number) =>
  z.string('must be a string').min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const emailAddress = z
  .email({
    error: (issue) => (typeof issue.input === 'string' ? 'must be an e-mail address' : 'must be a string'),
  })
  .max(254, 'must be at most 254 characters');

const password = text(1024);
const newPassword = z
  .string('must be a string')
  .min(8, 'must be at least 8 characters')
  .max(1024, 'must be at most 1024 characters');
const captcha = text(4096).meta({
  description:
    'The captcha token: the payload of the `altcha` widget (base64) that solved a challenge from GET /v1/auth/captcha',
  example: 'eyJjaGFsbGVuZ2UiOnsicGFyYW1ldGVycyI6ey4uLn0sInNpZ25hdHVyZSI6Ii4uLiJ9LCJzb2x1dGlvbiI6ey4uLn19',
});

export const panelLoginBody = z.object({ email: emailAddress, password, captcha }).meta({ id: 'PanelLogin' });
export const forgotBody = z
  .object({
    email: emailAddress,
    captcha,
    lang: lang.optional().meta({ description: 'Language of the e-mail; overrides X-User-Language' }),
  })
  .meta({ id: 'ForgotPassword' });
export const resetBody = z
  .object({ token: text(200).meta({ description: 'The token of the e-mailed link' }), newPassword })
  .meta({ id: 'ResetPassword' });
export const changeBody = z
  .object({ currentPassword: password, newPassword })
  .refine((body) => body.newPassword !== body.currentPassword, {
    path: ['newPassword'],
    message: 'must be different from currentPassword',
  })
  .meta({ id: 'ChangePassword' });

/** `X-User-Language` is a hint: pt, en or es, also as pt-BR etc.; anything else is ignored. */
function languageHint(request: Request) {
  const hint = request.get('x-user-language')?.trim().toLowerCase().slice(0, 2);
  return LANGS.find((known) => known === hint);
}

export function panelAuthRoutes({ services, limits }: RouteKit): RouteDefinition[] {
  const { panel } = services;
  return [
    defineRoute({
      method: 'get',
      path: '/auth/captcha',
      tag: 'Authentication',
      summary: 'Get a captcha challenge for panel-login and forgot-password',
      description:
        'An ALTCHA proof-of-work challenge for the `altcha` widget (no image to read, nothing to type). Single use, valid for 10 minutes: send the widget’s payload as `captcha`.',
      auth: 'none',
      before: limits.captcha,
      success: { status: 200, schema: z.object({ status: successStatus, data: captchaChallengeSchema }) },
      errors: [429, 500],
      handle: async ({ response }) => {
        const challenge = await panel.issueCaptcha();
        response.set('Cache-Control', 'no-store');
        return ok(challenge);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/panel-login',
      tag: 'Authentication',
      summary: 'Log in to the web panel with e-mail, password and captcha',
      description:
        'Answers the same token set as login. Ten failed passwords in a row for one e-mail from one address lock that pair out for 15 minutes.',
      auth: 'none',
      body: panelLoginBody,
      before: limits.panelLogin,
      success: { status: 200, schema: z.object({ status: successStatus, data: tokenSetSchema }) },
      errors: [400, 401, 429, 500],
      handle: async ({ body, request }) => ok(await panel.panelLogin(body, clientIp(request))),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/forgot-password',
      tag: 'Authentication',
      summary: 'E-mail a link to reset the panel password',
      description:
        'Always the same answer, whether the e-mail has an account or not. The link is valid for 30 minutes, once; a new request replaces it. Language: `lang`, else the `X-User-Language` header (pt, en or es), else the account’s.',
      auth: 'none',
      body: forgotBody,
      before: limits.forgotPassword,
      success: { status: 200, schema: messagesBody },
      errors: [400, 429, 500],
      handle: async ({ body, request }) => {
        const chosen = body.lang ?? languageHint(request);
        const input = { email: body.email, captcha: body.captcha, lang: chosen };
        return okMessages(await panel.forgotPassword(input, clientIp(request)));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/reset-password',
      tag: 'Authentication',
      summary: 'Set a new panel password with the token of the e-mailed link',
      description: 'Signs out every session of the account.',
      auth: 'none',
      body: resetBody,
      before: limits.resetPassword,
      success: { status: 200, schema: messagesBody },
      errors: [400, 429, 500],
      handle: async ({ body, request }) => okMessages(await panel.resetPassword(body, clientIp(request))),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/change-password',
      tag: 'Authentication',
      summary: 'Change the panel password',
      description:
        'Needs the bearer token but no signature. Signs out every session of the account, this one too.',
      auth: 'bearer',
      body: changeBody,
      before: limits.changePassword,
      success: { status: 200, schema: messagesBody },
      errors: [400, 401, 429, 500],
      handle: async ({ auth, body }) => okMessages(await panel.changePassword(auth, body)),
    }),
  ];
}
