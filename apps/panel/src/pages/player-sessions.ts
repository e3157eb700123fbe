import { el, fill, utcTime } from '@raspa/browser-kit';
import type { Game, LiveSession } from '@raspa/server/wire';
import type { Page as ListPage } from '../api/api-client.ts';
import { table } from '../ui/blocks.ts';
import type { PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';

/** A player rarely has more than a few tabs open; past this many the section says how many it left out. */
const SHOWN = 50;

/**
 * The player's live sessions (GET /v1/user/{userId}/sessions), each with "End session"
 * (DELETE /v1/game/session/{id}, after a confirmation), then the list read again: the service is
 * the one that says what is still live. The API has no last activity of a session, so none is shown.
 */
export function sessionsSection(context: PageContext, userId: string, profileId: string): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const body = el('div');
  const title = el('h2', { tabindex: -1 }, [t.player.sessionsTitle]);
  const refresh = el('button', { type: 'button', class: 'secondary' }, [t.player.refreshSessions]);
  refresh.addEventListener('click', () => void load());

  /** The profile's games, to name a session's game by model and version (read once; ids if it fails). */
  let games: Map<string, Game> | undefined;
  const gameName = (gameId: string) => {
    const game = games?.get(gameId);
    return game ? `${game.gameModel} v${game.version}` : gameId;
  };

  async function end(session: LiveSession, button: HTMLButtonElement): Promise<void> {
    const started = utcTime(session.createdAt, lang);
    if (!window.confirm(t.player.confirmEnd(gameName(session.gameId), started))) return;
    const ended = await feedback.run(t.common.saving, () => api.endSession(session.id).then(() => true), {
      button,
    });
    if (ended) await load(t.player.sessionEnded);
  }

  function show(sessions: ListPage<LiveSession>): void {
    const { items, pagination } = sessions;
    fill(body, [
      table<LiveSession>(
        t.player.sessionsTitle,
        [
          [t.player.game, (session) => gameName(session.gameId)],
          [t.player.started, (session) => utcTime(session.createdAt, lang)],
          [t.player.expires, (session) => utcTime(session.expireAt, lang)],
          [
            t.common.actions,
            (session) => {
              const button = el(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  'aria-label': t.player.endSessionOf(
                    gameName(session.gameId),
                    utcTime(session.createdAt, lang),
                  ),
                },
                [t.player.endSession],
              );
              button.addEventListener('click', () => void end(session, button));
              return button;
            },
          ],
        ],
        items,
        t.player.noSessions,
      ),
      pagination.totalCount > items.length
        ? el('p', { class: 'hint' }, [t.player.sessionsMore(items.length, pagination.totalCount)])
        : null,
    ]);
  }

  async function load(said = ''): Promise<void> {
    const sessions = await feedback.run(
      t.common.loading,
      async () => {
        if (!games) {
          const listed = profileId ? await api.listGames(profileId).catch(() => []) : [];
          games = new Map(listed.map((game) => [game.id, game]));
        }
        return api.listSessions(userId, { pageSize: SHOWN });
      },
      { region: body, button: refresh },
    );
    if (!sessions) return;
    show(sessions);
    if (said) {
      feedback.say(said);
      title.focus();
    }
  }
  void load();

  return el('section', { class: 'card', 'aria-label': t.player.sessionsTitle }, [
    title,
    el('p', { class: 'hint' }, [t.player.sessionsIntro]),
    ...feedback.nodes(),
    body,
    el('div', { class: 'actions' }, [refresh]),
  ]);
}
