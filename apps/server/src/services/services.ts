import type { Deps } from '../deps.ts';
import { createAuthService } from './auth-service.ts';
import { createGameService } from './game-service.ts';
import { createListService } from './list-service.ts';
import { createPanelAuthService } from './panel-auth-service.ts';
import { createPlayerService } from './player-service.ts';
import { createProfileService } from './profile-service.ts';
import { createSessionService } from './session-service.ts';
import { createWebhookService } from './webhook-service.ts';

/** The services the routes call; none of them knows about HTTP. */
export function createServices(deps: Deps) {
  return {
    auth: createAuthService(deps),
    panel: createPanelAuthService(deps),
    profiles: createProfileService(deps),
    games: createGameService(deps),
    players: createPlayerService(deps),
    sessions: createSessionService(deps),
    lists: createListService(deps),
    webhooks: createWebhookService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
