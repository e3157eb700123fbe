/** Who is calling: the API client behind a live token set. */
export interface AuthContext {
  clientId: string;
  tokenSetId: string;
  /** The token set's signatureToken, derived from its access token (never stored). */
  signatureToken: string;
}
