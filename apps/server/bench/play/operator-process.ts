import { startTestOperator } from '../../test/test-operator.ts';
import { serveParent } from '../kit/child.ts';
import { latency } from '../kit/stats.ts';
import type { OperatorCounts } from './messages.ts';

/**
 * The operator of the play-loop bench, in its own process: the tests' HTTP wallet (signature
 * checked, idempotent by transactionId) and webhook receiver, with balances that never run out.
 */
const operator = await startTestOperator({ startCents: 1e12 });
const distinct = new Set<string>();
let counted = 0;

/** Webhook lag: from the round's moment (opened: createdAt, closed: endAt) to its arrival here. */
function lagsSince(from: number): number[] {
  const lags: number[] = [];
  for (const event of operator.events.slice(from)) {
    const at = event.event === 'close-round' ? event.payload?.endAt : event.payload?.createdAt;
    if (typeof at === 'string') lags.push(event.receivedAt - Date.parse(at));
  }
  return lags;
}

serveParent(async (type, body) => {
  if (type === 'address') {
    return {
      walletUrl: operator.walletUrl,
      webhookUrl: operator.webhookUrl,
      walletSecret: operator.walletSecret,
    };
  }
  if (type === 'counts') {
    for (; counted < operator.events.length; counted++) distinct.add(operator.events[counted]?.id ?? '');
    const counts: OperatorCounts = {
      walletCalls: operator.calls.length,
      events: operator.events.length,
      hookRequests: operator.hookRequests(),
      distinctEvents: distinct.size,
    };
    return { ...counts };
  }
  if (type === 'lag') return { lagMs: latency(lagsSince(Number(body.fromEvent ?? 0))) };
  throw new Error(`unknown request ${type}`);
});
