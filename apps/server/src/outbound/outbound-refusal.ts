// Apart from the connector so that callers can recognise a refusal without loading undici (the
// wallet-check command starts noticeably faster without it).

/** The policy refused the destination; no connection was made. */
export class OutboundRefusedError extends Error {
  readonly code = 'ERR_OUTBOUND_REFUSED';
}

/** The refusal's reason if `error` (or one of its causes) is one; fetch wraps it in a TypeError. */
export function outboundRefusal(error: unknown): string | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    if (at instanceof OutboundRefusedError) return at.message;
  }
  return undefined;
}
