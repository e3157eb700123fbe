import type { ApiClient } from '../api/api-client.ts';
import type { Catalogue } from '../i18n/en.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { el, field, formValues } from '../ui/dom.ts';
import { Feedback } from '../ui/feedback.ts';

const input = (
  name: string,
  type: string,
  autocomplete: string,
  extra: Record<string, string | number | boolean> = {},
) => el('input', { name, type, autocomplete, required: true, ...extra });

/** The page title every page starts with; focused on arrival so screen readers announce the page. */
export const heading = (text: string) => el('h1', { tabindex: -1 }, [text]);

/**
 * The service's own captcha: the image, the answer field, and a button for another image. Its loading
 * has its own feedback, so a new image does not wipe the sign-in error it follows.
 */
function captchaField(api: ApiClient, t: Catalogue) {
  const feedback = new Feedback(() => t);
  let captchaId = '';
  const image = el('img', { class: 'captcha', alt: t.auth.captchaImage, width: 150, height: 50 });
  const answer = input('captcha', 'text', 'off', {
    autocapitalize: 'characters',
    spellcheck: false,
    maxlength: 10,
  });
  const again = el('button', { type: 'button', class: 'secondary' }, [t.auth.newCaptcha]);
  async function load() {
    const captcha = await feedback.run(t.common.loading, () => api.captcha(), { button: again });
    if (!captcha) return;
    captchaId = captcha.captchaId;
    image.src = captcha.image;
    answer.value = '';
  }
  again.addEventListener('click', () => {
    void load().then(() => answer.focus());
  });
  return {
    node: el('div', { class: 'captcha-box' }, [
      image,
      again,
      field(t.auth.captcha, answer),
      ...feedback.nodes(),
    ]),
    load,
    /** The token: `captchaId:answer`. Each captcha takes one guess, so a new one is loaded after any try. */
    token: () => `${captchaId}:${answer.value.trim()}`,
  };
}

/** A small centred card for the pages a signed-out user sees. */
const card = (children: Array<Node | null>) => el('div', { class: 'auth-card' }, children);

export const signInPage: Page = (context) => {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const captcha = captchaField(api, t);
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
    const tokens = await feedback.run(
      t.auth.signingIn,
      () => api.panelLogin({ email, password, captcha: captcha.token() }),
      { button: submit, region: form },
    );
    if (tokens) {
      context.session.set(tokens);
      context.navigate(context.query.get('next') ?? 'overview', { replace: true });
      return;
    }
    await captcha.load();
  });
  void captcha.load();
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
  const captcha = captchaField(api, t);
  const submit = el('button', { type: 'submit' }, [t.auth.sendLink]);
  const form = el('form', {}, [
    field(t.auth.email, input('email', 'email', 'username')),
    captcha.node,
    submit,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { email = '' } = formValues(form);
    const messages = await feedback.run(
      t.auth.sending,
      () => api.forgotPassword({ email, captcha: captcha.token(), lang: context.lang }),
      { button: submit, region: form },
    );
    if (messages) {
      form.hidden = true;
      feedback.say(messages.join(' '));
      return;
    }
    await captcha.load();
  });
  void captcha.load();
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
