import type { TokenSet } from '@raspa/server/wire';

const KEY = 'raspa-panel-tokens';

/**
 * The signed-in user's token set, in sessionStorage: it survives a reload of this tab, is gone when
 * the tab closes, is never shared with other tabs and never put in a URL.
 */
export class Session {
  private tokens: TokenSet | undefined;

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>) {
    try {
      const saved = JSON.parse(storage.getItem(KEY) ?? 'null') as TokenSet | null;
      if (saved?.accessToken && saved.signatureToken) this.tokens = saved;
    } catch {
      storage.removeItem(KEY);
    }
  }

  get(): TokenSet | undefined {
    return this.tokens;
  }

  set(tokens: TokenSet): void {
    this.tokens = tokens;
    this.storage.setItem(KEY, JSON.stringify(tokens));
  }

  clear(): void {
    this.tokens = undefined;
    this.storage.removeItem(KEY);
  }
}
