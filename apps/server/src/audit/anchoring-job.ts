/**
 * The anchoring job: every AUDIT_ANCHOR_SECONDS, each client's next anchor, written by one
 * process at a time per client whatever the number of instances (a lease in audit_leases, as
 * webhook_leases). A failure is logged and retried at the next run; nothing here is on a round's
 * path.
 */
import type { Logger } from '../logger.ts';
import type { AuditAnchorRecord } from '../store/repos/audit-anchors-repo.ts';
import { type AnchorWriterDeps, writeNextAnchor } from './anchor-writer.ts';

export interface AnchoringJobDeps extends AnchorWriterDeps {
  logger: Pick<Logger, 'warn'>;
  /** This process's name in the leases. */
  owner: string;
  everyMs: number;
}

export interface AnchoringJob {
  /** One pass over every client; resolves with the anchors this process wrote. */
  runOnce(): Promise<AuditAnchorRecord[]>;
  stop(): Promise<void>;
}

export function startAnchoringJob(deps: AnchoringJobDeps, { timer = true } = {}): AnchoringJob {
  let stopped = false;

  async function anchorClient(clientId: string, written: AuditAnchorRecord[]): Promise<void> {
    const repo = deps.store.auditAnchors;
    const now = deps.clock();
    // The lease outlives a pass by far: a pass that takes longer loses it to another process,
    // whose anchor of the same seq then wins the insert, and this one writes nothing.
    const until = new Date(now.getTime() + Math.max(deps.everyMs * 2, 60_000)).toISOString();
    if (!(await repo.claim(clientId, deps.owner, now.toISOString(), until))) return;
    try {
      for (;;) {
        const record = await writeNextAnchor(deps, clientId);
        if (!record) return;
        written.push(record);
        if (record.anchor.count < deps.maxLeaves || stopped) return;
      }
    } finally {
      await repo.release(clientId, deps.owner);
    }
  }

  async function pass(): Promise<AuditAnchorRecord[]> {
    const written: AuditAnchorRecord[] = [];
    for (const clientId of await deps.store.auditAnchors.clientIds()) {
      if (stopped) break;
      try {
        await anchorClient(clientId, written);
      } catch (error) {
        deps.logger.warn('audit anchoring failed; retried at the next run', {
          clientId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return written;
  }

  /** One pass at a time in a process: a second caller's pass runs after the one under way. */
  let queue: Promise<unknown> = Promise.resolve();
  function runOnce(): Promise<AuditAnchorRecord[]> {
    const next = queue.then(pass);
    queue = next.catch(() => {});
    return next;
  }

  const interval = timer
    ? setInterval(() => {
        void runOnce().catch(() => {});
      }, deps.everyMs)
    : null;
  interval?.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (interval) clearInterval(interval);
      await queue;
    },
  };
}
