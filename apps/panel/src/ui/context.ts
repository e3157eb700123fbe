import type { Lang } from '@raspa/server/wire';
import type { ApiClient } from '../api/api-client.ts';
import type { Catalogue } from '../i18n/en.ts';
import type { Session } from '../session.ts';

/** What every page gets: the API, the words of the current language, the session and navigation. */
export interface PageContext {
  api: ApiClient;
  t: Catalogue;
  lang: Lang;
  session: Session;
  /** The query of the current address (filters; never tokens, except a reset link's, read once). */
  query: URLSearchParams;
  /** A one-time message for this page (e.g. "your session has ended"). */
  notice: string | undefined;
  navigate(
    route: string,
    options?: { query?: Record<string, string>; notice?: string; replace?: boolean },
  ): void;
  /** Replaces the address's query without a new page (filters and paging), so Back and links keep it. */
  setQuery(query: Record<string, string | undefined>): void;
}

export type Page = (context: PageContext) => HTMLElement;
