import type { Logger } from '../logger.ts';
import type { PlayService } from './play-service.ts';

/**
 * Drives the play loop's background work: wallet calls due for a retry (rollbacks, prizes, bets
 * left without an answer by a crash), rounds idle past their time-out, and blocks of a pool's
 * last draw indexes this process stopped drawing from. One pass at a time.
 */
export function startPlayTicker(
  play: PlayService,
  logger: Logger,
  tickMs = 1000,
  recovery: { releasePending?: boolean } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const pass = async () => {
    try {
      await play.settleDue();
      await play.closeIdleRounds();
      await play.giveBackIdleBlocks();
    } catch (error) {
      logger.error('play loop pass failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const tick = () => {
    running ??= pass().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, tickMs);
  timer.unref();
  running = play
    .recover(recovery)
    .then(
      () => {},
      (error: unknown) => {
        logger.error('recovery failed', { error: error instanceof Error ? error.message : String(error) });
      },
    )
    .finally(() => {
      running = undefined;
    });
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
