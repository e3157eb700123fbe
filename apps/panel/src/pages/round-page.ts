import { el, moneyOfMajor, saveFile, utcTime } from '@raspa/browser-kit';
import type { Game, RoundDetail, Transaction, WalletCallAttempt } from '@raspa/server/wire';
import { ApiError } from '../api/api-client.ts';
import { checkTicket } from '../fairness/pool-check.ts';
import { facts, section, table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { copyField } from '../ui/copy-field.ts';
import { afterPaint, Feedback } from '../ui/feedback.ts';
import { statusBadge } from '../ui/round-cells.ts';
import { heading, link } from './auth-pages.ts';
import { deliveryTable } from './delivery-table.ts';
import { resolveForm } from './resolve-form.ts';

const code = (text: string | null) => (text === null ? '—' : el('code', { class: 'wrap' }, [text]));

/** The card as the player saw it at the end, drawn by the player's page's renderer (loaded now). */
/** The card last drawn: freed when the next one is, so one WebGL context at most stays alive. */
let freeCard: (() => void) | undefined;

function cardSection(context: PageContext, round: RoundDetail): HTMLElement {
  const { t, lang } = context;
  if (round.card === null) return section(t.round.cardTitle, [el('p', { class: 'empty' }, [t.round.noCard])]);
  const feedback = new Feedback(() => t);
  const host = el('div', { class: 'card-canvas' });
  const level = round.ticket?.level ?? 0;
  const description =
    level > 0 ? t.round.cardWon(level, moneyOfMajor(round.prize, round.currency, lang)) : t.round.cardLost;
  void feedback.run(t.round.drawing, async () => {
    const { drawRound } = await import('../card/round-card.ts');
    freeCard?.();
    freeCard = await drawRound(host, round, lang);
  });
  return section(t.round.cardTitle, [
    el('figure', { class: 'round-card' }, [host, el('figcaption', {}, [description])]),
    ...feedback.nodes(),
  ]);
}

/** The ticket: its pool, draw and level, and once the pool's seed is out, the check of both. */
function ticketSection(context: PageContext, round: RoundDetail, game: Game | undefined): HTMLElement {
  const { t } = context;
  const ticket = round.ticket;
  if (!ticket) return section(t.round.ticketTitle, [el('p', { class: 'empty' }, [t.round.noTicket])]);
  const feedback = new Feedback(() => t);
  const verify = el('button', { type: 'button', class: 'secondary' }, [t.round.verify]);
  verify.addEventListener('click', async () => {
    if (!game) return;
    // Re-derives the whole pool from its seed in this browser (the core's own verifier).
    const result = await feedback.run(
      t.round.verifying,
      async () => {
        await afterPaint();
        return checkTicket(ticket, game);
      },
      { button: verify },
    );
    if (!result) return;
    if (result.ok) feedback.say(t.round.verified(ticket.level ?? 0));
    else feedback.show([t.round.notVerified(result.commitmentMatches, result.error ?? '')]);
  });
  return section(t.round.ticketTitle, [
    facts([
      [t.round.pool, ticket.poolNumber],
      [t.round.drawIndex, ticket.drawIndex],
      [t.round.level, ticket.level === 0 ? t.round.losing : ticket.level],
      [t.pools.commitment, code(ticket.commitment)],
      [t.pools.seed, ticket.seed ? code(ticket.seed) : t.pools.seedLater],
    ]),
    ticket.seed && game ? el('div', { class: 'actions' }, [verify]) : null,
    ...feedback.nodes(),
  ]);
}

/** The replay link: made on request (it is short-lived), shown with its expiry and a copy button. */
function replaySection(context: PageContext, round: RoundDetail): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const result = el('div');
  const create = el('button', { type: 'button' }, [t.round.replayCreate]);
  create.addEventListener('click', async () => {
    const replay = await feedback.run(t.common.saving, () => api.replayLink(round._id), { button: create });
    if (!replay) return;
    const link = copyField({
      id: 'replay-url',
      label: t.round.replayUrl,
      value: replay.url,
      t,
      feedback,
      extra: [
        el('a', { href: replay.url, target: '_blank', rel: 'noopener noreferrer', class: 'button-link' }, [
          t.round.replayOpen,
        ]),
      ],
    });
    result.replaceChildren(
      link.node,
      el('p', { class: 'hint' }, [t.round.replayExpires(utcTime(replay.expireAt, lang))]),
    );
    feedback.say(t.round.replayReady);
    link.focus();
  });
  return section(t.round.replayTitle, [
    el('p', { class: 'hint' }, [t.round.replayIntro]),
    el('div', { class: 'actions' }, [create]),
    ...feedback.nodes(),
    result,
  ]);
}

/**
 * Whether a signed audit anchor covers the round (docs/audit.md), and its proof as a file to
 * download, which an auditor verifies offline with the public key alone.
 */
function auditSection(context: PageContext, round: RoundDetail): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const slot = el('div');
  void feedback.run(
    t.common.loading,
    async () => {
      try {
        const proof = await api.roundProof(round._id);
        const download = el('button', { type: 'button', class: 'secondary' }, [t.round.proofDownload]);
        download.addEventListener('click', () =>
          saveFile(
            `round-${round._id}-proof.json`,
            `${JSON.stringify(proof, null, 2)}\n`,
            'application/json',
          ),
        );
        slot.replaceChildren(
          el('p', {}, [t.round.anchored(proof.anchor.seq, utcTime(proof.anchor.at, lang))]),
          el('p', { class: 'hint' }, [t.round.proofHint]),
          el('div', { class: 'actions' }, [download]),
        );
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'NOT_ANCHORED')) throw error;
        slot.replaceChildren(el('p', { class: 'empty' }, [t.round.notAnchored]));
      }
    },
    { region: slot },
  );
  return section(t.round.auditTitle, [...feedback.nodes(), slot]);
}

/** The webhook deliveries of the round's events, each one re-sendable; the list reloads after a re-send. */
function deliveriesSection(context: PageContext, round: RoundDetail): HTMLElement {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const slot = el('div');
  const show = (deliveries: RoundDetail['deliveries']) =>
    slot.replaceChildren(deliveryTable(context, t.round.deliveriesTitle, deliveries, feedback, refresh));
  async function refresh() {
    const fresh = await api.getRound(round._id).catch(() => undefined);
    if (fresh) show(fresh.deliveries);
  }
  show(round.deliveries);
  return section(t.round.deliveriesTitle, [...feedback.nodes(), slot]);
}

export const roundPage: Page = (context) => {
  const { api, t, lang } = context;
  const roundId = context.query.get('id') ?? '';
  const feedback = new Feedback(() => t);
  const body = el('div');
  const title = heading(t.round.title(roundId.slice(0, 8)));

  async function load(): Promise<void> {
    const loaded = await feedback.run(
      t.common.loading,
      async () => {
        const round = await api.getRound(roundId);
        const games = await api.listGames(round.profileId).catch(() => [] as Game[]);
        return { round, game: games.find((each) => each.id === round.gameId) };
      },
      { region: body },
    );
    if (!loaded) return;
    const { round, game } = loaded;
    body.replaceChildren(
      section(t.round.summary, [
        facts([
          [t.rounds.id, code(round._id)],
          [t.players.credential, round.user.credential],
          [t.rounds.player, code(round.user._id)],
          [t.rounds.game, game ? `${game.gameModel} v${game.version}` : (round.gameModel ?? round.gameId)],
          [t.common.status, statusBadge(round.status)],
          [t.rounds.paid, moneyOfMajor(round.paidPrice, round.currency, lang)],
          [t.rounds.prize, moneyOfMajor(round.prize, round.currency, lang)],
          [t.common.created, utcTime(round.createdAt, lang)],
          [t.rounds.ended, utcTime(round.endAt, lang)],
          [
            t.round.flagged,
            round.flagged
              ? el('span', { class: 'badge off' }, [t.round.flaggedYes])
              : round.resolution
                ? t.round.resolvedAs(
                    t.flagged.resolutions[round.resolution.resolution],
                    utcTime(round.resolution.resolvedAt, lang),
                  )
                : t.common.no,
          ],
          round.resolution ? [t.flagged.note, round.resolution.note] : null,
        ]),
      ]),
      round.flagged
        ? section(t.flagged.resolveTitle, [
            el('p', { class: 'hint' }, [t.flagged.intro]),
            resolveForm(context, round, async () => {
              await load();
              feedback.say(t.flagged.resolved);
            }),
          ])
        : el('div'),
      cardSection(context, round),
      ticketSection(context, round, game),
      replaySection(context, round),
      auditSection(context, round),
      section(t.rounds.transactions, [
        table<Transaction>(
          t.rounds.transactions,
          [
            [t.transactions.id, (transaction) => code(transaction._id)],
            [t.transactions.type, (transaction) => t.rounds.types[transaction.type]],
            [
              t.transactions.amount,
              (transaction) => moneyOfMajor(transaction.amount, transaction.currency, lang),
            ],
            [t.common.status, (transaction) => statusBadge(transaction.status)],
            [
              t.transactions.before,
              (transaction) => moneyOfMajor(transaction.balanceBefore, transaction.currency, lang),
            ],
            [
              t.transactions.after,
              (transaction) => moneyOfMajor(transaction.balanceAfter, transaction.currency, lang),
            ],
          ],
          round.transactions,
          t.common.none,
        ),
      ]),
      section(t.round.walletTitle, [
        table<WalletCallAttempt>(
          t.round.walletTitle,
          [
            [t.round.sentAt, (call) => utcTime(call.sentAt, lang)],
            [t.transactions.type, (call) => call.type],
            [t.round.attempt, (call) => call.attempt],
            [
              t.round.outcome,
              (call) =>
                el('span', { class: `badge outcome-${call.outcome}` }, [t.round.outcomes[call.outcome]]),
            ],
            [t.webhooks.responseCode, (call) => call.httpStatus ?? '—'],
            [t.webhooks.duration, (call) => call.duration],
            [t.round.balance, (call) => moneyOfMajor(call.balance, round.currency, lang)],
            [t.round.detail, (call) => el('span', { class: 'wrap' }, [call.detail ?? ''])],
            [t.transactions.id, (call) => code(call.transactionId)],
          ],
          round.walletCalls,
          t.common.none,
        ),
      ]),
      deliveriesSection(context, round),
    );
  }
  if (roundId) void load();
  else feedback.show([t.round.noId]);

  return el('section', {}, [
    title,
    el('p', {}, [link(context, 'rounds', t.round.back)]),
    ...feedback.nodes(),
    body,
  ]);
};
