import { el } from '@raspa/browser-kit';
import type { Catalogue } from '../i18n/en.ts';
import { field, formValues } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { captchaWidget } from './captcha-widget.ts';

const input = (
  name: string,
  type: string,
  autocomplete: string,
  extra: Record<string, string | number | boolean> = {},
) => el('input', { name, type, autocomplete, required: true, ...extra });

/** The page title every page starts with; focused on arrival so screen readers announce the page. */
export const heading = (text: string) => el('h1', { tabindex: -1 }, [text]);

/** A small centred card for the pages a signed-out user sees. */
const card = (children: Array<Node | null>) => el('div', { class: 'auth-card' }, children);

export const signInPage: Page = (context) => {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const captcha = captchaWidget(api, t, context.lang);
  const submit = el('button', { type: 'submit' }, [t.auth.signIn]);
  const form = el('form', { novalidate: false }, [
    field(t.auth.email, input('email', 'email', 'username')),
    field(t.auth.password, input('password', 'password', 'current-password')),
    captcha.node,
    submit,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { email = '', password = '' } = formValues(form);
    const token = await captcha.token();
    if (!token) return feedback.show([t.auth.captchaWidget.error]);
    const tokens = await feedback.run(
      t.auth.signingIn,
      () => api.panelLogin({ email, password, captcha: token }),
      { button: submit, region: form },
    );
    if (tokens) {
      context.session.set(tokens);
      context.navigate(context.query.get('next') ?? 'overview', { replace: true });
      return;
    }
    captcha.renew();
  });
  return card([
    heading(t.auth.signInTitle),
    context.notice ? el('p', { class: 'notice', role: 'status' }, [context.notice]) : null,
    form,
    ...feedback.nodes(),
    el('p', {}, [link(context, 'forgot-password', t.auth.forgotLink)]),
  ]);
};

/** An in-panel link: a real <a href> (open in a new tab works) that navigates without a reload. */
export function link(context: PageContext, route: string, text: string, query?: Record<string, string>) {
  const search = query ? `?${new URLSearchParams(query)}` : '';
  return el(
    'a',
    {
      href: `/panel/${route}${search}`,
      'data-route': route,
      on: {
        click: (event) => {
          const mouse = event as MouseEvent;
          if (mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.button !== 0) return;
          event.preventDefault();
          context.navigate(route, query ? { query } : {});
        },
      },
    },
    [text],
  );
}

export const forgotPasswordPage: Page = (context) => {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const captcha = captchaWidget(api, t, context.lang);
  const submit = el('button', { type: 'submit' }, [t.auth.sendLink]);
  const form = el('form', {}, [
    field(t.auth.email, input('email', 'email', 'username')),
    captcha.node,
    submit,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { email = '' } = formValues(form);
    const token = await captcha.token();
    if (!token) return feedback.show([t.auth.captchaWidget.error]);
    const messages = await feedback.run(
      t.auth.sending,
      () => api.forgotPassword({ email, captcha: token, lang: context.lang }),
      { button: submit, region: form },
    );
    if (messages) {
      form.hidden = true;
      feedback.say(messages.join(' '));
      return;
    }
    captcha.renew();
  });
  return card([
    heading(t.auth.forgotTitle),
    el('p', {}, [t.auth.forgotIntro]),
    form,
    ...feedback.nodes(),
    el('p', {}, [link(context, 'sign-in', t.auth.backToSignIn)]),
  ]);
};

/** Two new-password fields that must agree; `value()` is undefined (and says why) when they do not. */
function newPasswordFields(t: Catalogue, feedback: Feedback) {
  const first = input('newPassword', 'password', 'new-password', { minlength: 8 });
  const second = input('again', 'password', 'new-password', { minlength: 8 });
  return {
    nodes: [field(t.auth.newPassword, first), field(t.auth.again, second)],
    value(): string | undefined {
      if (first.value === second.value) return first.value;
      feedback.clear();
      feedback.show([t.auth.differ]);
      second.focus();
      return undefined;
    },
  };
}

/**
 * The page the e-mailed link opens (/panel/reset-password?token=…). The token is read once, kept in
 * memory and removed from the address bar at once, so it stays out of history and of any Referer.
 */
export function resetPasswordPage(token: string): Page {
  return (context) => {
    const { api, t } = context;
    const feedback = new Feedback(() => t);
    const passwords = newPasswordFields(t, feedback);
    const submit = el('button', { type: 'submit' }, [t.auth.setPassword]);
    const form = el('form', {}, [...passwords.nodes, submit]);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const newPassword = passwords.value();
      if (newPassword === undefined) return;
      const done = await feedback.run(t.common.saving, () => api.resetPassword({ token, newPassword }), {
        button: submit,
        region: form,
      });
      if (done) context.navigate('sign-in', { notice: t.auth.resetDone, replace: true });
    });
    if (!token) {
      form.hidden = true;
      feedback.show([t.auth.noToken]);
    }
    return card([
      heading(t.auth.resetTitle),
      form,
      ...feedback.nodes(),
      el('p', {}, [
        link(context, token ? 'sign-in' : 'forgot-password', token ? t.auth.backToSignIn : t.auth.forgotLink),
      ]),
    ]);
  };
}

export const accountPage: Page = (context) => {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const passwords = newPasswordFields(t, feedback);
  const submit = el('button', { type: 'submit' }, [t.auth.change]);
  const form = el('form', { class: 'narrow' }, [
    field(t.auth.currentPassword, input('currentPassword', 'password', 'current-password')),
    ...passwords.nodes,
    submit,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const newPassword = passwords.value();
    if (newPassword === undefined) return;
    const { currentPassword = '' } = formValues(form);
    const done = await feedback.run(
      t.common.saving,
      () => api.changePassword({ currentPassword, newPassword }),
      {
        button: submit,
        region: form,
      },
    );
    // The service signs every session of the account out, this one too: sign in again.
    if (done) {
      context.session.clear();
      context.navigate('sign-in', { notice: t.auth.changed, replace: true });
    }
  });
  return el('section', {}, [heading(t.auth.changeTitle), form, ...feedback.nodes()]);
};
