import {
  createWebhookDispatcher,
  type DispatcherDeps,
  type DispatcherOptions,
  type WebhookDispatcher,
} from './dispatch.ts';
import { createWebhookOutbox, type WebhookOutbox } from './enqueue.ts';

/** Puts the delivery together: enqueue.ts's outbox, nudging dispatch.ts's dispatcher. */

export interface WebhookDelivery {
  /** For the play service: queue events inside the round's transaction. */
  outbox: WebhookOutbox;
  /** For the process: start() after listening, await stop() before closing the store. */
  dispatcher: WebhookDispatcher;
}

/**
 * The outbox and its dispatcher, wired so a queued event is sent as soon as its round commits.
 * `nudge` replaces the dispatcher's own where another process delivers (nudge.ts).
 */
export function createWebhookDelivery(
  deps: DispatcherDeps,
  options: DispatcherOptions = {},
  nudge?: () => void,
): WebhookDelivery {
  const dispatcher = createWebhookDispatcher(deps, options);
  const outbox = createWebhookOutbox({
    newId: deps.newId,
    clock: deps.clock,
    nudge: nudge ?? dispatcher.nudge,
  });
  return { outbox, dispatcher };
}
