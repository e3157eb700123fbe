import { count, decimal, el, moneyOfMajor, percent, utcTime } from '@raspa/browser-kit';
import type { Game, Profile, ReportRow, Round, Webhook } from '@raspa/server/wire';
import { PERIODS, type Period, periodRange } from '../report/periods.ts';
import {
  currenciesOf,
  dailyGgr,
  type GameFigures,
  gameFigures,
  sumRows,
  type Totals,
} from '../report/report-figures.ts';
import { field, select, table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { ggrChart } from '../ui/ggr-chart.ts';
import { profilePicker } from '../ui/profile-picker.ts';
import { shortId } from '../ui/short-id.ts';
import { heading, link } from './auth-pages.ts';
import { roundLink } from './round-link.ts';

/** What the overview names a game by: its model and version, and its profile. */
interface GameInfo {
  label: string;
  profile: string;
  rtp: number;
}

/** A section of the overview: its heading, its own progress and errors, and its content. */
function block(context: PageContext, title: string) {
  const feedback = new Feedback(() => context.t);
  const body = el('div');
  const node = el('section', { class: 'card', 'aria-label': title }, [
    el('h2', {}, [title]),
    ...feedback.nodes(),
    body,
  ]);
  return { node, body, feedback };
}

/** The rows' `promoPrizes` in one currency, summed as report-figures.ts sums amounts (no float drift). */
const promoPrizesOf = (rows: readonly ReportRow[], currency: string) =>
  rows
    .filter((row) => row.currency === currency)
    .reduce((sum, row) => sum + Math.round(row.promoPrizes * 10_000), 0) / 10_000;

const rtpText = (rtp: number | null, lang: PageContext['lang']) =>
  rtp === null ? '—' : percent(rtp, lang, 2);

/** Realised − configured in RTP points, signed, with a word for screen readers. */
function gapCell(figure: GameFigures, context: PageContext): Node | string {
  if (figure.rtpGap === null) return '—';
  const points = figure.rtpGap * 100;
  const text = `${points > 0 ? '+' : ''}${decimal(points, context.lang, 2)} ${context.t.overview.points}`;
  return el('span', { class: points > 0 ? 'gap over' : 'gap' }, [text]);
}

export const overviewPage: Page = (context) => {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const filters = el('form', { class: 'filters card', role: 'search' });
  const totals = block(context, t.overview.totalsTitle);
  const games = block(context, t.overview.gamesTitle);
  const flagged = block(context, t.overview.flaggedTitle);
  const webhooks = block(context, t.overview.webhooksTitle);
  const now = Date.now();

  const periodControl = select(
    'period',
    PERIODS.map((period) => [period, t.overview.periods[period]] as const),
    context.query.get('period') ?? 'week',
  );
  let gameRows: Record<Period, ReportRow[]> | undefined;
  let gameInfo = new Map<string, GameInfo>();

  /** The client's games in the profile(s) looked at, by id (their names and configured RTPs). */
  async function loadGames(profiles: Profile[]): Promise<Map<string, GameInfo>> {
    const lists = await Promise.all(
      profiles.map(async (profile) => ({ profile, games: await api.listGames(profile.profileId) })),
    );
    return new Map(
      lists.flatMap(({ profile, games: list }) =>
        list.map((game: Game) => [
          game.id,
          { label: `${game.gameModel} v${game.version}`, profile: profile.name, rtp: game.rtp },
        ]),
      ),
    );
  }

  function showTotals(dayRows: ReportRow[], month: { dateStart: string; dateEnd: string }): void {
    const currencies = currenciesOf(dayRows);
    if (currencies.length === 0) {
      totals.body.replaceChildren(el('p', { class: 'empty' }, [t.overview.nothingPlayed]));
      return;
    }
    totals.body.replaceChildren(
      ...currencies.flatMap((currency) => {
        const lines = PERIODS.map((period) => {
          const { dateStart } = periodRange(period, now);
          const rows = dayRows.filter((row) => row.key >= dateStart);
          return { period, ...sumRows(rows, currency), promoPrizes: promoPrizesOf(rows, currency) };
        });
        return [
          table<Totals & { period: Period; promoPrizes: number }>(
            t.overview.totalsOf(currency),
            [
              [t.overview.period, (line) => el('strong', {}, [t.overview.periods[line.period]])],
              [t.overview.rounds, (line) => count(line.rounds, lang)],
              [t.overview.bets, (line) => moneyOfMajor(line.bets, currency, lang)],
              [t.overview.prizes, (line) => moneyOfMajor(line.prizes, currency, lang)],
              [t.overview.rollbacks, (line) => moneyOfMajor(line.rollbacks, currency, lang)],
              [t.overview.promoPrizes, (line) => moneyOfMajor(line.promoPrizes, currency, lang)],
              [t.overview.ggr, (line) => moneyOfMajor(line.ggr, currency, lang)],
              [t.overview.realisedRtp, (line) => rtpText(line.rtp, lang)],
            ],
            lines,
            t.common.none,
          ),
          ggrChart(dailyGgr(dayRows, currency, month.dateStart, month.dateEnd), currency, t, lang),
        ];
      }),
    );
  }

  function showGames(): void {
    if (!gameRows) return;
    const period = periodControl.value as Period;
    context.setQuery({ profileId: filters.querySelector('select')?.value || undefined, period });
    const configured = new Map([...gameInfo].map(([id, info]) => [id, info.rtp]));
    games.body.replaceChildren(
      field(t.overview.period, periodControl),
      table<GameFigures>(
        t.overview.gamesOf(t.overview.periods[period]),
        [
          [
            t.overview.game,
            (figure) => {
              const info = gameInfo.get(figure.gameId);
              return info ? el('strong', {}, [info.label]) : shortId(figure.gameId);
            },
          ],
          [t.common.profile, (figure) => gameInfo.get(figure.gameId)?.profile ?? '—'],
          [t.overview.rounds, (figure) => count(figure.rounds, lang)],
          [t.overview.bets, (figure) => moneyOfMajor(figure.bets, figure.currency, lang)],
          [t.overview.prizes, (figure) => moneyOfMajor(figure.prizes, figure.currency, lang)],
          [t.overview.ggr, (figure) => moneyOfMajor(figure.ggr, figure.currency, lang)],
          [t.overview.realisedRtp, (figure) => rtpText(figure.rtp, lang)],
          [t.overview.configuredRtp, (figure) => rtpText(figure.configuredRtp, lang)],
          [t.overview.gap, (figure) => gapCell(figure, context)],
        ],
        gameFigures(gameRows[period], configured),
        t.overview.nothingPlayed,
      ),
      el('p', { class: 'hint' }, [t.overview.rtpNote]),
    );
  }
  periodControl.addEventListener('change', showGames);

  async function loadReport(profileId: string, profiles: Profile[]): Promise<void> {
    const scope = profileId ? profiles.filter((profile) => profile.profileId === profileId) : profiles;
    const month = periodRange('month', now);
    const filter = profileId ? { profileId } : {};
    const [dayRows, info, ...perGame] = await Promise.all([
      totals.feedback.run(t.common.loading, () => api.report({ ...filter, groupBy: 'day', ...month }), {
        region: totals.body,
      }),
      games.feedback.run(t.common.loading, () => loadGames(scope), { region: games.body }),
      ...PERIODS.map((period) =>
        games.feedback.run(t.common.loading, () =>
          api.report({ ...filter, groupBy: 'game', ...periodRange(period, now) }),
        ),
      ),
    ]);
    if (dayRows) showTotals(dayRows, month);
    if (!info || perGame.some((rows) => rows === undefined)) return;
    gameInfo = info;
    gameRows = Object.fromEntries(PERIODS.map((period, index) => [period, perGame[index] ?? []])) as Record<
      Period,
      ReportRow[]
    >;
    showGames();
  }

  async function loadFlagged(): Promise<void> {
    const page = await flagged.feedback.run(t.common.loading, () => api.listFlagged({ pageSize: 5 }), {
      region: flagged.body,
    });
    if (!page) return;
    const total = page.pagination.totalCount;
    flagged.body.replaceChildren(
      el('p', {}, [t.overview.flaggedCount(total)]),
      ...(total === 0
        ? []
        : [
            table<Round>(
              t.overview.flaggedTitle,
              [
                [t.rounds.id, (round) => roundLink(context, round._id)],
                [t.common.created, (round) => utcTime(round.createdAt, lang)],
                [t.players.credential, (round) => round.user.credential],
                [t.common.status, (round) => round.status],
              ],
              page.items,
              t.overview.noneFlagged,
            ),
            el('p', {}, [link(context, 'flagged', t.overview.allFlagged)]),
          ]),
    );
  }

  async function loadWebhooks(): Promise<void> {
    const { dateStart } = periodRange('week', now);
    const failing = await webhooks.feedback.run(
      t.common.loading,
      async () => {
        const list = await api.listWebhooks();
        const checked = await Promise.all(
          list.map(async (webhook) => {
            const [failed, pending] = await Promise.all([
              api.listDeliveries(webhook.id, { status: 'failed', dateStart, pageSize: 1 }),
              api.listDeliveries(webhook.id, { status: 'pending', pageSize: 1 }),
            ]);
            return { webhook, failed: failed.pagination.totalCount, pending: pending.pagination.totalCount };
          }),
        );
        return checked.filter(
          (entry) => entry.webhook.status !== 'active' || entry.failed > 0 || entry.pending > 0,
        );
      },
      { region: webhooks.body },
    );
    if (!failing) return;
    webhooks.body.replaceChildren(
      table<{ webhook: Webhook; failed: number; pending: number }>(
        t.overview.webhooksTitle,
        [
          [
            t.webhooks.url,
            ({ webhook }) => link(context, 'webhooks', webhook.url, { webhookId: webhook.id }),
          ],
          [
            t.common.status,
            ({ webhook }) =>
              el('span', { class: `badge ${webhook.status === 'active' ? 'on' : 'off'}` }, [webhook.status]),
          ],
          [t.overview.failedWeek, ({ failed }) => count(failed, lang)],
          [t.overview.waitingRetry, ({ pending }) => count(pending, lang)],
          [t.webhooks.lastTriggered, ({ webhook }) => utcTime(webhook.lastTriggered, lang)],
        ],
        failing,
        t.overview.noneFailing,
      ),
    );
  }

  void profilePicker(context, feedback, { optional: true }).then((chosen) => {
    if (!chosen) return;
    filters.replaceChildren(field(t.common.profile, chosen.control));
    chosen.control.addEventListener('change', () => void loadReport(chosen.control.value, chosen.profiles));
    void loadReport(chosen.control.value, chosen.profiles);
  });
  void loadFlagged();
  void loadWebhooks();

  return el('section', {}, [
    heading(t.overview.title),
    el('p', { class: 'lead' }, [t.overview.intro]),
    filters,
    ...feedback.nodes(),
    totals.node,
    games.node,
    flagged.node,
    webhooks.node,
  ]);
};
