import { isoIn, isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { type MailLang, resetPasswordEmail } from '../mail/templates/reset-password.ts';
import { createAltchaCaptcha } from '../security/altcha-captcha.ts';
import { DUMMY_PASSWORD } from '../security/passwords.ts';
import { digest, newToken } from '../security/secrets.ts';
import type { Transaction } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import { auditRow } from './audit-scope.ts';
import type { AuthContext } from './auth-context.ts';
import { type AuthService, createAuthService, type TokenSet } from './auth-service.ts';

export const RESET_TOKEN_TTL_MINUTES = 30;

export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for this e-mail, a link to reset the password has been sent.';
export const RESET_PASSWORD_MESSAGE =
  'The password has been reset and every session of this account was signed out; log in with the new password.';
export const CHANGE_PASSWORD_MESSAGE =
  'The password has been changed and every session of this account was signed out, this one included; log in again.';

const badCaptcha = () =>
  new ApiError(
    'VALIDATION_ERROR',
    'captcha: is wrong, has expired or was already used; get a new one from GET /v1/auth/captcha',
  );
const badCredentials = () => new ApiError('UNAUTHORIZED', 'email or password is not valid');
const badResetToken = () =>
  new ApiError(
    'VALIDATION_ERROR',
    'token: is not valid, has expired or was already used; ask for a new link with forgot-password',
  );

const isMailLang = (value: string): value is MailLang => value === 'pt' || value === 'en' || value === 'es';

export interface PanelAuthOptions {
  auth?: AuthService;
}

/**
 * The audit log's operations for the panel's sign-ins, reset requests and password resets, which
 * carry no token (the HTTP layer's audit step records only writes made with one): named like the others.
 */
export const AUDIT_PANEL_LOGIN = 'POST /v1/auth/panel-login';
export const AUDIT_PANEL_LOGIN_REFUSED = 'POST /v1/auth/panel-login (refused)';
export const AUDIT_FORGOT_PASSWORD = 'POST /v1/auth/forgot-password';
export const AUDIT_FORGOT_PASSWORD_REFUSED = 'POST /v1/auth/forgot-password (refused)';
export const AUDIT_RESET_PASSWORD = 'POST /v1/auth/reset-password';

/**
 * The web panel's account operations: captcha, e-mail + password login, forgotten and changed
 * passwords. Answers never tell whether an e-mail has an account, in words or in time.
 */
export function createPanelAuthService(deps: Deps, options: PanelAuthOptions = {}) {
  const { store } = deps;
  const auth = options.auth ?? createAuthService(deps);
  const captcha = deps.captcha ?? createAltchaCaptcha(deps, deps.settings.captcha);
  const jobs = new Set<Promise<void>>();
  let dummyHash: Promise<string> | undefined;

  /** A hash nobody's password matches, made once with the same parameters as real ones. */
  function dummyPasswordHash(): Promise<string> {
    dummyHash ??= deps.passwords.hash(DUMMY_PASSWORD);
    return dummyHash;
  }

  /** Checks a password against the account's hash, or against a dummy one so both take as long. */
  async function passwordMatches(passwordHash: string | null | undefined, password: string) {
    const matches = await deps.passwords.verify(passwordHash ?? (await dummyPasswordHash()), password);
    return Boolean(passwordHash) && matches;
  }

  async function checkCaptcha(token: string, ip: string) {
    if (!(await captcha.verify(token, ip))) throw badCaptcha();
  }

  /**
   * Runs `job` after the answer has gone out, so the answer takes the same time either way;
   * `failure` is the log line if it fails.
   */
  function enqueue(job: () => Promise<void>, failure: string) {
    const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(job)
      .catch((error: unknown) =>
        deps.logger.error(failure, { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => jobs.delete(run));
    jobs.add(run);
  }

  /** A reset request in the account's audit log (an unknown e-mail's belongs to no account). */
  const forgotEntry = (clientId: string, ip: string, operation: string) =>
    auditRow(deps, { clientId, actor: 'panel', targetId: null, ip, operation });

  async function sendResetLink(email: string, requestedLang: MailLang | undefined, ip: string) {
    const client = await store.clients.findClientByEmail(email);
    if (!client) return;
    const token = newToken(deps.random, 32);
    await store.transaction(async (tx) => {
      await tx.audit.insert(forgotEntry(client.id, ip, AUDIT_FORGOT_PASSWORD));
      await tx.resets.deleteUnusedResetTokens(client.id);
      await tx.resets.insertResetToken({
        id: deps.newId(),
        clientId: client.id,
        tokenHash: digest(token),
        expireAt: isoIn(deps, RESET_TOKEN_TTL_MINUTES * 60),
        usedAt: null,
        createdAt: isoNow(deps),
      });
    });
    const link = new URL(deps.settings.panelUrl);
    link.searchParams.set('token', token);
    const lang = requestedLang ?? (isMailLang(client.lang) ? client.lang : 'en');
    await deps.mailer.send(
      resetPasswordEmail({
        to: client.email,
        lang,
        name: client.name,
        link: link.href,
        minutes: RESET_TOKEN_TTL_MINUTES,
      }),
    );
    deps.logger.info('password-reset e-mail sent', { clientId: client.id, lang });
  }

  /** Sets a new password and signs every session out, on the caller's transaction. */
  async function replacePassword(tx: Transaction, clientId: string, passwordHash: string) {
    await tx.clients.setPasswordHash(clientId, passwordHash);
    await tx.clients.revokeTokenSets(clientId, isoNow(deps));
    await tx.resets.deleteUnusedResetTokens(clientId);
  }

  return {
    /** A fresh challenge for the panel's captcha widget. */
    issueCaptcha: () => captcha.issue(),

    async panelLogin(
      input: { email: string; password: string; captcha: string },
      ip: string,
    ): Promise<TokenSet> {
      await checkCaptcha(input.captcha, ip);
      const client = await store.clients.findClientByEmail(input.email);
      const matches = await passwordMatches(client?.passwordHash, input.password);
      if (client && !matches) {
        // A refused sign-in to a real account is the account's business (never the password tried).
        const entry = { clientId: client.id, actor: 'panel' as const, targetId: null, ip };
        await store.audit.insert(auditRow(deps, { ...entry, operation: AUDIT_PANEL_LOGIN_REFUSED }));
      }
      if (!client || !matches) throw badCredentials();
      return auth.issueTokenSet(client.id, 'panel', { operation: AUDIT_PANEL_LOGIN, ip });
    },

    /**
     * Checks the captcha, then queues the e-mail (if the account exists) and returns at once. The
     * request, refused or not, is in the account's audit log, written after the answer went out
     * (so an existing account takes no longer to answer).
     */
    async forgotPassword(
      input: { email: string; captcha: string; lang?: MailLang | undefined },
      ip: string,
    ): Promise<string> {
      try {
        await checkCaptcha(input.captcha, ip);
      } catch (error) {
        enqueue(async () => {
          const client = await store.clients.findClientByEmail(input.email);
          if (client) await store.audit.insert(forgotEntry(client.id, ip, AUDIT_FORGOT_PASSWORD_REFUSED));
        }, 'could not audit a refused password-reset request');
        throw error;
      }
      enqueue(() => sendResetLink(input.email, input.lang, ip), 'password-reset e-mail failed');
      return FORGOT_PASSWORD_MESSAGE;
    },

    async resetPassword(input: { token: string; newPassword: string }, ip: string): Promise<string> {
      const tokenHash = digest(input.token);
      if (!(await store.resets.findLiveResetToken(tokenHash, isoNow(deps)))) throw badResetToken();
      const passwordHash = await deps.passwords.hash(input.newPassword);
      await store.transaction(async (tx) => {
        const used = await tx.resets.useResetToken(tokenHash, isoNow(deps));
        if (!used) throw badResetToken(); // used by a concurrent request meanwhile
        await replacePassword(tx, used.clientId, passwordHash);
        const entry = { clientId: used.clientId, actor: 'panel' as const, targetId: null, ip };
        await tx.audit.insert(auditRow(deps, { ...entry, operation: AUDIT_RESET_PASSWORD }));
      });
      return RESET_PASSWORD_MESSAGE;
    },

    async changePassword(
      context: AuthContext,
      input: { currentPassword: string; newPassword: string },
    ): Promise<string> {
      const client = await store.clients.findClientById(context.clientId);
      if (!(await passwordMatches(client?.passwordHash, input.currentPassword))) {
        throw new ApiError('UNAUTHORIZED', 'currentPassword is not correct');
      }
      const passwordHash = await deps.passwords.hash(input.newPassword);
      await store.transaction((tx) => replacePassword(tx, context.clientId, passwordHash));
      return CHANGE_PASSWORD_MESSAGE;
    },

    /** Resolves once every queued e-mail has been handed over (tests, shutdown). */
    async settled(): Promise<void> {
      while (jobs.size > 0) await Promise.all([...jobs]);
    },
  };
}

export type PanelAuthService = ReturnType<typeof createPanelAuthService>;
