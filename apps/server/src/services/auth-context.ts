import type { TokenOrigin } from '../store/records.ts';

/** Who is calling: the API client behind a live token set. */
export interface AuthContext {
  clientId: string;
  tokenSetId: string;
  /** Which login gave the token set: the API key's or the panel's (the audit log's "who"). */
  via: TokenOrigin;
  /** The token set's signatureToken, derived from its access token (never stored). */
  signatureToken: string;
}
