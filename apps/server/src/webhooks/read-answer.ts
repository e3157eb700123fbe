/**
 * What one attempt's answer means (docs/contract.md §7): a 2xx is a success; anything else, a 3xx
 * included (redirects are never followed), is a failure; 410 Gone also asks for the webhook to be
 * disabled. What a failure then leads to (a retry, giving up) is retry-policy.ts.
 */
export interface Answer {
  success: boolean;
  /** 410 Gone: the receiver says the webhook is no more. */
  gone: boolean;
  /** The delivery log's `errorMessage`: why it failed, null for a success or no reason known. */
  errorMessage: string | null;
}

export const isSuccessCode = (code: number | null): boolean => code !== null && code >= 200 && code < 300;

function codeMessage(code: number): string | null {
  if (isSuccessCode(code)) return null;
  if (code === 410) return 'the receiver answered 410 Gone: the webhook is disabled';
  if (code >= 300 && code < 400) return `the receiver answered ${code}; redirects are not followed`;
  return `the receiver answered ${code}`;
}

/**
 * `responseCode`: the status, null when no answer came; `failure`: why none came (time-out,
 * network, refused URL, unreadable token), which is then the message.
 */
export function readAnswer(responseCode: number | null, failure: string | null): Answer {
  return {
    success: isSuccessCode(responseCode),
    gone: responseCode === 410,
    errorMessage: failure ?? (responseCode === null ? null : codeMessage(responseCode)),
  };
}
