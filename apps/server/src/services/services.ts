import type { Deps } from '../deps.ts';
import { createPlayRecords } from '../play/play-records.ts';
import { createPlayService, type PlayNotifier } from '../play/play-service.ts';
import { DEFAULT_WALLET_RETRY } from '../play/retry-schedule.ts';
import { createWalletDirectory } from '../wallet/wallet-directory.ts';
import { createWebhookDelivery } from '../webhooks/wiring.ts';
import { createAuditAnchorsService } from './audit-anchors-service.ts';
import { createAuditScope } from './audit-scope.ts';
import { createAuditService } from './audit-service.ts';
import { createAuthService } from './auth-service.ts';
import { createFairnessService } from './fairness-service.ts';
import { createGameService } from './game-service.ts';
import { createIdempotencyService } from './idempotency-service.ts';
import { createListService } from './list-service.ts';
import { meteredPlay, roundCounting } from './metered-play.ts';
import { meteredWallets } from './metered-wallets.ts';
import { outboundPolicy } from './outbound-check.ts';
import { createPanelAuthService } from './panel-auth-service.ts';
import { createPlayerService } from './player-service.ts';
import { createProfileService } from './profile-service.ts';
import { createPromotionService } from './promotion-service.ts';
import { createProtectionService } from './protection-service.ts';
import { createRoundService } from './round-service.ts';
import { createSessionEndRelay } from './session-endings.ts';
import { createSessionService } from './session-service.ts';
import { createTestCardService } from './test-card-service.ts';
import { createWebhookService } from './webhook-service.ts';

export interface ServiceOptions {
  /**
   * Where the round's units say "events queued" when another process delivers webhooks (WORKERS
   * on the embedded file: the primary); default: this process's own dispatcher.
   */
  webhookNudge?: () => void;
}

/** The services the routes call; none of them knows about HTTP. */
export function createServices(raw: Deps, options: ServiceOptions = {}) {
  // The routes' services write through a store whose units also carry the audit entry of the
  // write they serve (audit-scope.ts); the play loop and the dispatcher run outside any write.
  const auditScope = createAuditScope(raw);
  const deps: Deps = { ...raw, store: auditScope.store(raw.store) };
  const play = deps.settings.play ?? {};
  const webhooks = createWebhookDelivery(
    raw,
    {
      ...(play.webhookScheduleMs && { schedule: play.webhookScheduleMs }),
      ...(play.webhookTimeoutMs && { timeoutMs: play.webhookTimeoutMs }),
      ...(play.webhookInFlight && { inFlightPerWebhook: play.webhookInFlight }),
      onSettled: (result, event) =>
        deps.metrics.webhookAttempt(
          result,
          result === 'delivered' ? (deps.clock().getTime() - Date.parse(event.createdAt)) / 1000 : undefined,
        ),
    },
    options.webhookNudge,
  );
  // The realtime layer attaches to the HTTP server after the services exist; events wait for it.
  const notifier = createNotifierRelay();
  const sessionEndings = createSessionEndRelay();
  const wallets = meteredWallets(
    createWalletDirectory({
      store: raw.store,
      secrets: deps.secrets,
      logger: deps.logger,
      clock: deps.clock,
      policy: outboundPolicy(deps),
      ...(play.walletTimeoutMs && { timeoutMs: play.walletTimeoutMs }),
    }),
    deps.metrics,
  );
  const playRecords = createPlayRecords(raw.store, deps.clock);
  return {
    notifier,
    sessionEndings,
    auditScope,
    webhookDelivery: webhooks,
    play: meteredPlay(
      createPlayService(raw, {
        wallets,
        events: roundCounting(webhooks.outbox, deps.metrics),
        notifier,
        retry: {
          delaysMs: play.walletRetryDelaysMs ?? DEFAULT_WALLET_RETRY.delaysMs,
          prizeGiveUpMs: play.prizeGiveUpMs ?? DEFAULT_WALLET_RETRY.prizeGiveUpMs,
          inFlightMs: play.walletInFlightMs ?? DEFAULT_WALLET_RETRY.inFlightMs,
        },
        ...(play.roundIdleMs && { roundIdleMs: play.roundIdleMs }),
        records: playRecords,
      }),
      deps.metrics,
    ),
    auth: createAuthService(deps),
    panel: createPanelAuthService(deps),
    profiles: createProfileService(deps, { changed: playRecords.forgetProfile }),
    games: createGameService(deps),
    players: createPlayerService(deps),
    protection: createProtectionService(deps, sessionEndings),
    sessions: createSessionService(deps, sessionEndings),
    lists: createListService(deps),
    webhooks: createWebhookService(deps, { resend: webhooks.dispatcher.resend }),
    fairness: createFairnessService(raw.store),
    idempotency: createIdempotencyService(raw),
    audit: createAuditService(deps),
    auditAnchors: createAuditAnchorsService(raw),
    rounds: createRoundService(deps),
    promotions: createPromotionService(deps),
    testCards: createTestCardService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;

/** A PlayNotifier that forwards to whichever target is attached later (none: events are dropped). */
function createNotifierRelay(): PlayNotifier & { attach(target: PlayNotifier): void } {
  let target: PlayNotifier | undefined;
  return {
    attach: (next) => {
      target = next;
    },
    balance: (playerId, balance) => target?.balance(playerId, balance),
    round: (playerId, round) => target?.round(playerId, round),
  };
}
