import { el, moneyOfMajor, utcTime } from '@raspa/browser-kit';
import { LIMIT_PERIODS, LIMIT_TYPES, type LimitKey, limitKeyOf } from '@raspa/core';
import type { Limits, LimitsUpdate, MoneyLimit, Profile } from '@raspa/server/wire';
import type { Catalogue } from '../i18n/en.ts';
import { lastAskedLimits, previewLimitChanges } from '../protection/limit-changes-preview.ts';
import { field, select, table } from '../ui/blocks.ts';
import type { PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';

const limitName = (limit: LimitKey, t: Catalogue) =>
  t.player.limitName(t.player.types[limit.type], t.player.periods[limit.period], limit.currency);

/** The limits in force with their usage and reset, and the looser values waiting for their 24 hours. */
function limitsView(context: PageContext, limits: Limits): HTMLElement[] {
  const { t, lang } = context;
  const usage = new Map(limits.usage.map((used) => [limitKeyOf(used), used]));
  const minutes = (value: number | null) => (value === null ? t.player.minutesNone : String(value));
  const pending = [
    ...limits.pending.limits.map((waiting) =>
      waiting.amount === null
        ? t.player.pendingRemoval(limitName(waiting, t), utcTime(waiting.appliesAt, lang))
        : t.player.pendingLimit(
            limitName(waiting, t),
            moneyOfMajor(waiting.amount, waiting.currency, lang),
            utcTime(waiting.appliesAt, lang),
          ),
    ),
    limits.pending.sessionMinutes &&
      t.player.pendingSession(
        minutes(limits.pending.sessionMinutes.value),
        utcTime(limits.pending.sessionMinutes.appliesAt, lang),
      ),
  ].filter((line): line is string => Boolean(line));
  return [
    el('p', { class: 'hint' }, [t.player.limitsIntro]),
    table<MoneyLimit>(
      t.player.limitsTitle,
      [
        [t.player.limit, (limit) => limitName(limit, t)],
        [t.player.amount, (limit) => moneyOfMajor(limit.amount, limit.currency, lang)],
        [
          t.player.used,
          (limit) => moneyOfMajor(usage.get(limitKeyOf(limit))?.used ?? null, limit.currency, lang),
        ],
        [t.player.resetsAt, (limit) => utcTime(usage.get(limitKeyOf(limit))?.resetAt ?? null, lang)],
      ],
      limits.limits,
      t.player.noLimits,
    ),
    el('ul', { class: 'plain' }, [
      el('li', {}, [`${t.player.sessionMinutes}: ${minutes(limits.sessionMinutes)}`]),
      el('li', {}, [`${t.player.realityCheckMinutes}: ${minutes(limits.realityCheckMinutes)}`]),
    ]),
    pending.length
      ? el('div', { class: 'notice', 'data-testid': 'pending-limits' }, [
          el('h3', {}, [t.player.pendingTitle]),
          el(
            'ul',
            { class: 'plain' },
            pending.map((line) => el('li', {}, [line])),
          ),
        ])
      : null,
  ].filter((node): node is HTMLElement => node !== null);
}

/**
 * The form that replaces every limit (PUT /v1/user/{userId}/limits): one row per limit, the session's
 * minutes, and, as you type, what saving will do by the core's rule (a raise or a removal waits 24 h).
 */
function limitsForm(
  context: PageContext,
  userId: string,
  profile: Profile | undefined,
  limits: Limits,
  saved: (limits: Limits) => void,
): HTMLFormElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const currencies = profile?.currencies?.length ? profile.currencies : [profile?.currency ?? 'BRL'];
  const rows = el('div', { class: 'limit-rows' });
  const preview = el('div', { 'aria-live': 'polite', class: 'limit-preview' });
  let numbered = 0;

  /** One limit's row: type, period, currency, amount and its remove button. */
  function addRow(limit?: MoneyLimit): HTMLFieldSetElement {
    numbered++;
    const amount = el('input', {
      name: 'amount',
      type: 'number',
      min: 0,
      step: 'any',
      inputmode: 'decimal',
      required: true,
      value: limit?.amount ?? '',
      class: 'short',
    });
    const row = el('fieldset', { class: 'limit-row' }, [
      el('legend', {}, [`${t.player.limit} ${numbered}`]),
      el('div', { class: 'grid' }, [
        field(
          t.player.type,
          select(
            'type',
            LIMIT_TYPES.map((type) => [type, t.player.types[type]] as const),
            limit?.type,
          ),
        ),
        field(
          t.player.period,
          select(
            'period',
            LIMIT_PERIODS.map((period) => [period, t.player.periods[period]] as const),
            limit?.period,
          ),
        ),
        field(
          t.player.currency,
          select(
            'currency',
            [...new Set([...currencies, ...(limit ? [limit.currency] : [])])].map(
              (code) => [code, code] as const,
            ),
            limit?.currency ?? currencies[0],
          ),
        ),
        field(t.player.amount, amount),
      ]),
    ]);
    const remove = el('button', { type: 'button', class: 'secondary' }, [t.player.remove]);
    const name = () => {
      const [type, period, currency] = ['type', 'period', 'currency'].map(
        (control) => row.querySelector<HTMLSelectElement>(`[name="${control}"]`)?.value ?? '',
      );
      return limitName({ type, period, currency } as LimitKey, t);
    };
    remove.setAttribute('aria-label', t.player.removeLimit(name()));
    row.addEventListener('change', () => remove.setAttribute('aria-label', t.player.removeLimit(name())));
    remove.addEventListener('click', () => {
      row.remove();
      describe();
      addButton.focus();
    });
    row.append(el('div', { class: 'row-actions' }, [remove]));
    rows.append(row);
    return row;
  }

  /** The rows as limits (an amount that is not a number stays NaN: the service names it). */
  const requested = (): MoneyLimit[] =>
    [...rows.querySelectorAll<HTMLFieldSetElement>('fieldset.limit-row')].map((row) => {
      const value = (name: string) => row.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? '';
      return {
        type: value('type') as MoneyLimit['type'],
        period: value('period') as MoneyLimit['period'],
        currency: value('currency'),
        amount: value('amount') === '' ? Number.NaN : Number(value('amount')),
      };
    });

  function describe(): void {
    const changes = previewLimitChanges(
      limits.limits,
      requested().filter((limit) => Number.isFinite(limit.amount) && limit.amount > 0),
    );
    const money = (amount: number | null, currency: string) =>
      amount === null ? t.player.removed : moneyOfMajor(amount, currency, lang);
    preview.replaceChildren(
      el('h3', {}, [t.player.changesTitle]),
      changes.length
        ? el(
            'ul',
            { class: 'plain' },
            changes.map((change) =>
              el('li', { class: change.applies === 'after-24h' ? 'waits' : 'at-once' }, [
                t.player.changeTo(
                  limitName(change, t),
                  change.from === null ? t.player.minutesNone : money(change.from, change.currency),
                  money(change.to, change.currency),
                  change.applies === 'after-24h' ? t.player.after24h : t.player.atOnce,
                ),
              ]),
            ),
          )
        : el('p', { class: 'hint' }, [t.player.noChanges]),
    );
  }

  const minutesInput = (name: string, value: number | null) =>
    el('input', {
      name,
      type: 'number',
      min: 1,
      max: 1440,
      step: 1,
      inputmode: 'numeric',
      value: value ?? '',
      class: 'short',
    });
  const addButton = el('button', { type: 'button', class: 'secondary' }, [t.player.addLimit]);
  addButton.addEventListener('click', () => {
    addRow().querySelector<HTMLInputElement>('[name="amount"]')?.focus();
    describe();
  });
  const submit = el('button', { type: 'submit' }, [t.player.saveLimits]);
  const sessionMinutes = minutesInput(
    'sessionMinutes',
    limits.pending.sessionMinutes ? limits.pending.sessionMinutes.value : limits.sessionMinutes,
  );
  const realityCheckMinutes = minutesInput('realityCheckMinutes', limits.realityCheckMinutes);
  const form = el('form', { class: 'limits-form', novalidate: true }, [
    el('h3', {}, [t.player.editTitle]),
    el('p', { class: 'notice' }, [t.player.coolingOff]),
    rows,
    el('div', { class: 'actions' }, [addButton]),
    el('div', { class: 'grid' }, [
      field(t.player.sessionMinutes, sessionMinutes, t.player.minutesHint),
      field(
        t.player.realityCheckMinutes,
        realityCheckMinutes,
        `${t.player.minutesHint} ${t.player.realityHint}`,
      ),
    ]),
    preview,
    el('div', { class: 'actions' }, [submit]),
    ...feedback.nodes(),
  ]);
  for (const limit of lastAskedLimits(limits.limits, limits.pending.limits)) addRow(limit);
  describe();
  form.addEventListener('input', describe);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const minutes = (input: HTMLInputElement) => (input.value.trim() === '' ? null : Number(input.value));
    const body: LimitsUpdate = {
      limits: requested(),
      sessionMinutes: minutes(sessionMinutes),
      realityCheckMinutes: minutes(realityCheckMinutes),
    };
    const answer = await feedback.run(t.common.saving, () => api.setLimits(userId, body), {
      button: submit,
      region: form,
    });
    if (answer) saved(answer);
  });
  return form;
}

/** The player's limits: what holds, what waits, and the form that changes them. */
export function limitsSection(
  context: PageContext,
  userId: string,
  profile: Profile | undefined,
): HTMLElement {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const body = el('div');
  const title = el('h2', { tabindex: -1 }, [t.player.limitsTitle]);
  const show = (limits: Limits, said = '') => {
    body.replaceChildren(
      ...limitsView(context, limits),
      limitsForm(context, userId, profile, limits, (next) => {
        show(next, t.player.limitsSaved);
        title.focus();
      }),
    );
    if (said) feedback.say(said);
  };
  void feedback
    .run(t.common.loading, () => api.getLimits(userId), { region: body })
    .then((limits) => {
      if (limits) show(limits);
    });
  return el('section', { class: 'card', 'aria-label': t.player.limitsTitle }, [
    title,
    ...feedback.nodes(),
    body,
  ]);
}
