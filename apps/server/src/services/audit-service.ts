import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { PageRequest } from '../store/paging.ts';
import type { AuthContext } from './auth-context.ts';

/** One write as the HTTP layer saw it: who, which operation, on what, from where. */
export interface AuditedWrite {
  auth: AuthContext;
  operation: string;
  targetId: string | null;
  ip: string;
}

/** The audit log (docs/contract.md §11): every write through the API that changed something. */
export function createAuditService(deps: Pick<Deps, 'store' | 'clock' | 'newId'>) {
  const { store } = deps;
  return {
    async record({ auth, operation, targetId, ip }: AuditedWrite): Promise<void> {
      await store.audit.insert({
        id: deps.newId(),
        clientId: auth.clientId,
        actor: auth.via,
        operation,
        targetId,
        ip,
        at: isoNow(deps),
      });
    },
    list: (auth: AuthContext, page: PageRequest) => store.audit.listByClient(auth.clientId, page),
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
