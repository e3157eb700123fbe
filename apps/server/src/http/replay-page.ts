import { type Request, type Response, Router } from 'express';
import type { RoundService } from '../services/round-service.ts';
import { PAGE_LANGS, readBuiltPage, withRoot } from './built-page.ts';
import { GAME_DIST_DIR, notBuilt, pageHeaders } from './play-page.ts';

/**
 * The replay page behind a replay link (docs/contract.md §11): `GET /replay/{token}` answers
 * apps/game's built replay.html, which reads the round from `GET /v1/replay/{token}` and draws its
 * card with the player's page's renderer. Its root says whether the link is live (`data-replay="ok"`)
 * or not (`data-replay="expired"`: unknown, altered or past its expireAt), so a dead link shows its
 * message at once, in `?lang=`, else the game's language, else the browser's. Same headers as
 * the player's page (no referrer, no caching, a strict CSP); only the service itself may frame it.
 * The token is never logged (the request log names the route pattern).
 */
export function createReplayPageRouter(options: {
  rounds: Pick<RoundService, 'replayCover'>;
  distDir?: string;
}): Router {
  const distDir = options.distDir ?? GAME_DIST_DIR;
  const router = Router();

  const serve = async (token: string, request: Request, response: Response) => {
    const html = await readBuiltPage(distDir, 'replay.html');
    if (html === undefined) {
      notBuilt(response, {
        heading: 'The replay page is not built',
        what: 'the page behind this replay link',
      });
      return;
    }
    const cover = token ? await options.rounds.replayCover(token) : undefined;
    const asked = request.query.lang;
    const wanted = typeof asked === 'string' && PAGE_LANGS.includes(asked) ? asked : undefined;
    const game = cover?.gameLang && PAGE_LANGS.includes(cover.gameLang) ? cover.gameLang : undefined;
    const lang = wanted ?? game ?? (request.acceptsLanguages(...PAGE_LANGS) || 'en');
    pageHeaders(response, "'self'");
    response
      .status(cover ? 200 : 404)
      .type('html')
      .send(withRoot(html, { lang, 'data-replay': cover ? 'ok' : 'expired' }));
  };

  router.get('/replay/:token', (request, response) => serve(request.params.token, request, response));
  // Where the page leaves the address bar: a reload has no token left to show.
  router.get('/replay/', (request, response) => serve('', request, response));
  return router;
}
