import { count, decimal, el, LANGS, money, moneyOfMajor, percent } from '@raspa/browser-kit';
import { GAME_MODELS, type GameModel, LADDER_LIMITS } from '@raspa/core';
import type { Game, GameInput, Lang } from '@raspa/server/wire';
import type { Catalogue } from '../i18n/en.ts';
import { type LadderPreview, previewLadder } from '../ladder/ladder-preview.ts';
import { field, formValues, select, table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { profilePicker } from '../ui/profile-picker.ts';
import { heading } from './auth-pages.ts';
import { parSheetView } from './par-sheet-view.ts';
import { poolsView } from './pools-view.ts';

/** The form's values as the API wants them (numbers parsed; NaN where a field is not a number). */
export function gameInput(values: Record<string, string>, profileId: string): GameInput {
  return {
    profileId,
    gameModel: (values.gameModel ?? GAME_MODELS[0]) as GameModel,
    lang: (values.lang ?? 'pt') as Lang,
    currency: (values.currency ?? '').toUpperCase(),
    rtp: Number(values.rtp),
    sampling: Number(values.sampling),
    prizedPercent: Number(values.prizedPercent),
    betPrice: Number(values.betPrice),
    replacePreviousVersion: values.replacePreviousVersion === 'on',
  };
}

/** The live ladder: figures and the 8 levels, or the core's reasons when the inputs cannot make one. */
function ladderView(preview: LadderPreview, t: Catalogue, lang: Lang): HTMLElement[] {
  if (!preview.ok) {
    return [
      el('p', {}, [t.games.invalid]),
      el(
        'ul',
        { class: 'problems' },
        preview.problems.map((problem) => el('li', {}, [`${problem.field}: ${problem.message}`])),
      ),
    ];
  }
  const { ladder, stats } = preview;
  const amount = (minor: number) => money(minor, ladder.currency, lang);
  const figure = (label: string, value: string, key: string) =>
    el('div', { class: 'figure', 'data-figure': key }, [el('dt', {}, [label]), el('dd', {}, [value])]);
  return [
    el('dl', { class: 'figures' }, [
      figure(t.games.realisedRtp, percent(stats.realisedRtp, lang, 3), 'rtp'),
      figure(
        t.games.hitRate,
        `${t.games.oneIn(decimal(stats.overallOdds, lang, 2))} (${percent(stats.hitRate, lang)})`,
        'hit-rate',
      ),
      figure(
        t.games.topMultiple,
        `${amount(ladder.maxBetPrize)} (${decimal(stats.topPrizeMultiple, lang)}×)`,
        'top',
      ),
      figure(t.games.averageWin, amount(stats.averageWin), 'average'),
      figure(
        t.games.volatility,
        `${t.games.volatilityLevels[preview.volatility]} · ${t.games.volatilityIndex(decimal(preview.spread, lang))}`,
        'volatility',
      ),
    ]),
    table(
      t.games.ladderTitle,
      [
        [t.games.level, (level) => level.level],
        [t.games.prize, (level) => amount(level.prize)],
        [t.games.winners, (level) => count(level.winners, lang)],
        [t.games.odds, (level) => t.games.oneIn(decimal(ladder.sampling / level.winners, lang))],
        [t.games.share, (level) => percent(level.percentage, lang)],
      ],
      [...ladder.levels].reverse(),
      t.common.none,
    ),
  ];
}

function gameForm(
  context: PageContext,
  profileId: string,
  currency: string,
  onCreated: () => Promise<void>,
): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const number = (name: string, value: string, attributes: Record<string, string | number>) =>
    el('input', { name, type: 'number', required: true, value, inputmode: 'decimal', ...attributes });
  const ladder = el('div', { class: 'ladder', 'aria-live': 'polite', 'data-testid': 'ladder' });
  const submit = el('button', { type: 'submit' }, [t.games.save]);
  const form = el('form', { class: 'card' }, [
    el('h2', {}, [t.games.create]),
    el('div', { class: 'grid' }, [
      field(
        t.games.model,
        select(
          'gameModel',
          GAME_MODELS.map((model) => [model, model] as const),
        ),
      ),
      field(
        t.games.lang,
        select(
          'lang',
          LANGS.map((code) => [code, t.lang[code]] as const),
          lang,
        ),
      ),
      field(
        t.games.currency,
        el('input', { name: 'currency', required: true, maxlength: 3, value: currency, class: 'short' }),
      ),
      field(t.games.betPrice, number('betPrice', '2', { min: 0, step: 'any' })),
      field(
        t.games.rtp,
        number('rtp', '0.9', { min: LADDER_LIMITS.rtp.min, max: LADDER_LIMITS.rtp.max, step: 0.000001 }),
      ),
      field(
        t.games.sampling,
        number('sampling', '1000000', {
          min: LADDER_LIMITS.sampling.min,
          max: LADDER_LIMITS.sampling.max,
          step: 1,
        }),
      ),
      field(
        t.games.prizedPercent,
        number('prizedPercent', '0.3', {
          min: LADDER_LIMITS.prizedPercent.min,
          max: LADDER_LIMITS.prizedPercent.max,
          step: 0.000001,
        }),
      ),
    ]),
    el('div', { class: 'check' }, [
      el('input', { type: 'checkbox', name: 'replacePreviousVersion', id: 'replace-version' }),
      el('label', { for: 'replace-version' }, [t.games.replace]),
    ]),
    el('section', { class: 'ladder-box', 'aria-label': t.games.ladderTitle }, [
      el('h3', {}, [t.games.ladderTitle]),
      el('p', { class: 'hint' }, [t.games.ladderIntro]),
      ladder,
    ]),
    el('div', { class: 'actions' }, [submit]),
    ...feedback.nodes(),
  ]);

  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    const input = gameInput(formValues(form), profileId);
    ladder.replaceChildren(
      ...ladderView(previewLadder({ ...input, gameModel: input.gameModel as GameModel }), t, lang),
    );
  };
  form.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  });
  form.addEventListener('change', refresh);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const created = await feedback.run(
      t.common.saving,
      () => api.createGame(gameInput(formValues(form), profileId)),
      {
        button: submit,
        region: form,
      },
    );
    if (!created) return;
    await onCreated();
    feedback.say(t.games.created(created.gameModel, created.version ?? 0));
  });
  refresh();
  return form;
}

export const gamesPage: Page = (context) => {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const picker = el('div');
  const list = el('div', { class: 'list' });
  const poolsSlot = el('div');
  const formSlot = el('div');

  async function loadGames(profileId: string) {
    const games = await feedback.run(t.common.loading, () => api.listGames(profileId), { region: list });
    if (!games) return;
    const sorted = [...games].sort((a, b) => a.gameModel.localeCompare(b.gameModel) || b.version - a.version);
    list.replaceChildren(
      table<Game>(
        t.games.title,
        [
          [t.games.model, (game) => el('strong', {}, [game.gameModel])],
          [t.games.version, (game) => game.version],
          [t.games.betPrice, (game) => moneyOfMajor(game.betPrice, game.currency, lang)],
          [t.games.rtp, (game) => percent(game.rtp, lang, 4)],
          [t.games.sampling, (game) => count(game.sampling, lang)],
          [t.games.prizedPercent, (game) => percent(game.prizedPercent, lang, 4)],
          [t.games.topPrize, (game) => moneyOfMajor(game.maxBetPrize, game.currency, lang)],
          [
            t.games.active,
            (game) =>
              el('span', { class: game.active ? 'badge on' : 'badge' }, [
                game.active ? t.common.yes : t.common.no,
              ]),
          ],
          [
            t.common.actions,
            (game) => {
              // Each opens a view of the version below the list.
              const opens = (label: string, name: string, view: () => HTMLElement) => {
                const button = el('button', { type: 'button', class: 'secondary', 'aria-label': name }, [
                  label,
                ]);
                button.addEventListener('click', () => poolsSlot.replaceChildren(view()));
                return button;
              };
              const pools = opens(t.pools.title, t.pools.of(game.gameModel, game.version), () =>
                poolsView(context, game),
              );
              const sheet = opens(t.parSheet.title, t.parSheet.of(game.gameModel, game.version), () =>
                parSheetView(context, game),
              );
              return el('div', { class: 'row-actions' }, [activation(game, profileId), pools, sheet]);
            },
          ],
        ],
        sorted,
        t.common.none,
      ),
    );
  }

  function activation(game: Game, profileId: string): HTMLElement {
    const label = game.active ? t.games.deactivate : t.games.activate;
    const button = el(
      'button',
      { type: 'button', class: 'secondary', 'aria-label': `${label}: ${game.gameModel} v${game.version}` },
      [label],
    );
    button.addEventListener('click', async () => {
      const done = await feedback.run(
        t.common.saving,
        () => api.setGameActive(game.id, { profileId, active: !game.active }).then(() => true),
        { button },
      );
      if (!done) return;
      await loadGames(profileId);
      feedback.say(
        game.active
          ? t.games.deactivated(game.gameModel, game.version)
          : t.games.activated(game.gameModel, game.version),
      );
    });
    return button;
  }

  void profilePicker(context, feedback).then((chosen) => {
    if (!chosen) return;
    picker.replaceChildren(chosen.node);
    const show = () => {
      const profile = chosen.profiles.find((candidate) => candidate.profileId === chosen.control.value);
      if (!profile) return;
      context.setQuery({ profileId: profile.profileId });
      poolsSlot.replaceChildren();
      formSlot.replaceChildren(
        gameForm(context, profile.profileId, profile.currency, () => loadGames(profile.profileId)),
      );
      void loadGames(profile.profileId);
    };
    chosen.control.addEventListener('change', show);
    show();
  });

  return el('section', {}, [
    heading(t.games.title),
    el('p', { class: 'lead' }, [t.games.intro]),
    picker,
    ...feedback.nodes(),
    list,
    poolsSlot,
    formSlot,
  ]);
};
