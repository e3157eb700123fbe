/**
 * Webhook receiver checker: posts deliveries to an integrator's webhook receiver as the service
 * does (docs/webhooks.md), single and batch, signed with the webhook's signatureToken, and says
 * which rules hold:
 *
 *   pnpm webhook-check --url <receiverUrl> --secret <signatureToken> [--timeout-ms 5000]
 *
 * It checks what can be seen from outside: a 2xx for a good delivery and for a repeat of it (so
 * retries stop), a refusal of a bad signature, and a 2xx for batches with duplicate ids and for a
 * failed batch sent again in another. Whether the receiver did nothing twice only it can tell: its
 * log should show each event id once. Exit 0 when every check passes, 1 when one fails, 2 on bad usage.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { batchRequest, type DeliveryRequest, deliveryRequest } from '../webhooks/build-request.ts';
import { readToolOptions, refuseUsage } from './tool-options.ts';

interface Check {
  name: string;
  run(): Promise<string>;
}

const USAGE = 'usage: pnpm webhook-check --url <receiverUrl> --secret <signatureToken> [--timeout-ms 5000]';

/** A round as an event carries it, marked as a check's (amounts zero). */
function testEvent(eventType: 'open-round' | 'close-round') {
  const roundId = `webhook-check-${randomUUID()}`;
  return {
    id: randomUUID(),
    eventType,
    payload: {
      _id: roundId,
      status: eventType === 'open-round' ? 'open' : 'closed',
      prize: 0,
      transactions: [],
    },
  };
}

export function webhookChecks(url: string, secret: string, timeoutMs: number): Check[] {
  async function post(request: DeliveryRequest): Promise<number> {
    const answer = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await answer.arrayBuffer();
    return answer.status;
  }
  const ok = (status: number) => status >= 200 && status < 300;
  const expectOk = (status: number, what: string) => {
    if (!ok(status)) throw new Error(`${what}: answered ${status}, wanted a 2xx`);
    return `${what}: ${status}`;
  };
  const now = () => new Date();
  const single = testEvent('close-round');
  const [a, b, c] = [testEvent('open-round'), testEvent('close-round'), testEvent('close-round')];
  return [
    {
      name: 'single: a signed delivery is accepted',
      run: async () => expectOk(await post(deliveryRequest(single, secret, now())), 'delivery'),
    },
    {
      name: 'single: a repeat (same webhook-id) is accepted, so retries stop',
      run: async () => expectOk(await post(deliveryRequest(single, secret, now())), 'repeat'),
    },
    {
      name: 'single: a wrong signature is refused',
      run: async () => {
        const status = await post(deliveryRequest(testEvent('close-round'), `${secret}-wrong`, now()));
        if (ok(status)) throw new Error(`answered ${status} to a delivery signed with another secret`);
        return `refused with ${status}`;
      },
    },
    {
      name: 'batch: a signed batch is accepted',
      run: async () => expectOk(await post(batchRequest(randomUUID(), [a, b], secret, now())), 'batch'),
    },
    {
      name: 'batch: a failed batch sent again in another, beside a new event, is accepted',
      run: async () => expectOk(await post(batchRequest(randomUUID(), [b, c], secret, now())), 'batch'),
    },
    {
      name: 'batch: a wrong signature over the whole body is refused',
      run: async () => {
        const status = await post(
          batchRequest(randomUUID(), [testEvent('open-round')], `${secret}-x`, now()),
        );
        if (ok(status)) throw new Error(`answered ${status} to a batch signed with another secret`);
        return `refused with ${status}`;
      },
    },
  ];
}

async function main(): Promise<number> {
  const values = readToolOptions(process.argv.slice(2), ['url', 'secret', 'timeout-ms']);
  if (typeof values === 'string') return refuseUsage(values, USAGE);
  const timeoutMs = Number(values['timeout-ms'] ?? '5000');
  if (!values.url || !URL.canParse(values.url) || !values.secret || !(timeoutMs > 0)) {
    console.error(USAGE);
    return 2;
  }
  let failed = 0;
  for (const check of webhookChecks(values.url, values.secret, timeoutMs)) {
    try {
      console.log(`ok   ${check.name} (${await check.run()})`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${check.name}: ${(error as Error).message}`);
    }
  }
  console.log(failed === 0 ? 'every check passed' : `${failed} check(s) failed`);
  return failed === 0 ? 0 : 1;
}

// Run as a command; imported (the tests), only its checks.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await main();
