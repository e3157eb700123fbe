import { el, utcTime } from '@raspa/browser-kit';
import type { Profile, ProfileInput, ProfileType, ProfileUpdate } from '@raspa/server/wire';
import { field, formValues, select, table } from '../ui/blocks.ts';
import type { Page } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { pagedList } from '../ui/pager.ts';
import { heading } from './auth-pages.ts';

const PAGE_SIZE = 20;

/** "BRL, usd ,EUR" → ['BRL', 'USD', 'EUR']; empty → undefined (any currency). */
export function currencyList(text: string): string[] | undefined {
  const codes = text
    .split(/[\s,;]+/)
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);
  return codes.length ? codes : undefined;
}

/** One origin per line (or separated by spaces or commas). */
export const originList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The body of a create: empty optional fields are left out. */
export function profileBody(values: Record<string, string>): ProfileInput {
  const body: ProfileInput = { name: values.name ?? '', type: (values.type ?? 'operator') as ProfileType };
  if (values.currency) body.currency = values.currency.toUpperCase();
  const currencies = currencyList(values.currencies ?? '');
  if (currencies) body.currencies = currencies;
  if (values.walletUrl) body.walletUrl = values.walletUrl;
  if (values.walletSignatureToken) body.walletSignatureToken = values.walletSignatureToken;
  body.allowedOrigins = originList(values.allowedOrigins ?? '');
  return body;
}

/** The body of an update: the same, but no currencies listed means any (null); a field left out keeps what it had. */
export const profileUpdate = (values: Record<string, string>): ProfileUpdate => ({
  ...profileBody(values),
  currencies: currencyList(values.currencies ?? '') ?? null,
});

export const profilesPage: Page = (context) => {
  const { api, t, lang } = context;
  const listFeedback = new Feedback(() => t);
  const formFeedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  let editing: Profile | undefined;

  const formTitle = el('h2', { tabindex: -1 }, [t.profiles.createTitle]);
  const controls = {
    name: el('input', { name: 'name', required: true, maxlength: 120, autocomplete: 'off' }),
    type: select(
      'type',
      (['operator', 'integrator', 'demo', 'test'] as const).map(
        (type) => [type, t.profiles.types[type]] as const,
      ),
    ),
    currency: el('input', {
      name: 'currency',
      maxlength: 3,
      autocomplete: 'off',
      placeholder: 'BRL',
      class: 'short',
    }),
    currencies: el('input', { name: 'currencies', autocomplete: 'off', placeholder: 'BRL, USD' }),
    walletUrl: el('input', {
      name: 'walletUrl',
      type: 'url',
      autocomplete: 'off',
      placeholder: 'https://wallet.example/raspa',
    }),
    walletSignatureToken: el('input', {
      name: 'walletSignatureToken',
      type: 'password',
      autocomplete: 'new-password',
      minlength: 16,
    }),
    allowedOrigins: el('textarea', { name: 'allowedOrigins', rows: 3, autocomplete: 'off' }),
  };
  const submit = el('button', { type: 'submit' }, [t.common.save]);
  const cancel = el(
    'button',
    { type: 'button', class: 'secondary', hidden: true, on: { click: () => edit(undefined) } },
    [t.common.cancel],
  );
  const form = el('form', { class: 'card' }, [
    formTitle,
    el('div', { class: 'grid' }, [
      field(t.profiles.name, controls.name),
      field(t.profiles.type, controls.type),
      field(t.profiles.currency, controls.currency),
      field(t.profiles.currencies, controls.currencies, t.profiles.currenciesHint),
      field(t.profiles.walletUrl, controls.walletUrl),
      field(t.profiles.walletSecret, controls.walletSignatureToken, t.profiles.walletSecretHint),
      field(t.profiles.origins, controls.allowedOrigins, t.profiles.originsHint),
    ]),
    el('div', { class: 'actions' }, [submit, cancel]),
    ...formFeedback.nodes(),
  ]);

  function edit(profile: Profile | undefined) {
    editing = profile;
    form.reset();
    formFeedback.clear();
    formTitle.textContent = profile ? t.profiles.editTitle(profile.name) : t.profiles.createTitle;
    cancel.hidden = !profile;
    if (profile) {
      controls.name.value = profile.name;
      controls.type.value = profile.type;
      controls.currency.value = profile.currency;
      controls.currencies.value = (profile.currencies ?? []).join(', ');
      controls.walletUrl.value = profile.walletUrl ?? '';
      controls.allowedOrigins.value = profile.allowedOrigins.join('\n');
      formTitle.focus();
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = formValues(form);
    const target = editing;
    const saved = await formFeedback.run(
      t.common.saving,
      () =>
        target
          ? api.updateProfile(target.profileId, profileUpdate(values))
          : api.createProfile(profileBody(values)),
      { button: submit, region: form },
    );
    if (!saved) return;
    edit(undefined);
    formFeedback.say(t.profiles.saved(saved.name));
    await profiles.load();
  });

  const profiles = pagedList({
    t,
    feedback: listFeedback,
    list,
    label: t.profiles.title,
    pageIndex: Number(context.query.get('pageIndex')) || 1,
    fetch: (pageIndex) => api.listProfiles({ pageIndex, pageSize: PAGE_SIZE }),
    loaded: (_page, pageIndex) =>
      context.setQuery({ pageIndex: pageIndex > 1 ? String(pageIndex) : undefined }),
    render: (page) =>
      table<Profile>(
        t.profiles.title,
        [
          [t.profiles.name, (profile) => el('strong', {}, [profile.name])],
          [t.profiles.type, (profile) => t.profiles.types[profile.type]],
          [t.profiles.currency, (profile) => profile.currency],
          [t.profiles.currencies, (profile) => profile.currencies?.join(', ') ?? t.profiles.anyCurrency],
          [
            t.profiles.walletUrl,
            (profile) =>
              profile.walletUrl
                ? el('span', {}, [
                    profile.walletUrl,
                    profile.hasWalletSignatureToken ? ` (${t.profiles.secretSet})` : '',
                  ])
                : '—',
          ],
          [t.profiles.origins, (profile) => profile.allowedOrigins.join(' ') || '—'],
          [t.common.created, (profile) => utcTime(profile.createdAt, lang)],
          [
            t.common.actions,
            (profile) =>
              el(
                'button',
                {
                  type: 'button',
                  class: 'secondary',
                  'aria-label': `${t.common.edit}: ${profile.name}`,
                  on: { click: () => edit(profile) },
                },
                [t.common.edit],
              ),
          ],
        ],
        page.items,
        t.common.none,
      ),
  });
  void profiles.load();

  return el('section', {}, [
    heading(t.profiles.title),
    el('p', { class: 'lead' }, [t.profiles.intro]),
    ...listFeedback.nodes(),
    list,
    form,
  ]);
};
