import { get } from 'node:http';
import type { CrossProcessKind } from '../../src/ops/metrics.ts';

/** Messages the service's processes sent each other so far, by kind, summed (raspa_cross_process_messages_total). */
export type CrossProcessCounts = Record<CrossProcessKind, number>;

const SERIES = /^raspa_cross_process_messages_total\{kind="(\w+)",worker="(\d+)"\} (\d+)/;

/** One scrape of /metrics on a new connection, so that Node's cluster hands it to the next worker. */
export const scrape = (url: string) =>
  new Promise<string>((resolve, reject) => {
    get(`${url}/metrics`, { agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(text));
    }).on('error', reject);
  });

/**
 * The counts of every process of every instance: each instance's /metrics scraped until each of
 * its `workers` has answered (its series carry the worker's id). A lone process with no adapter
 * between processes has none: zero.
 */
export async function crossProcessMessages(
  urls: readonly string[],
  workers: number,
): Promise<CrossProcessCounts> {
  const sum: CrossProcessCounts = { push: 0, presence: 0, session_end: 0, heartbeat: 0, other: 0 };
  for (const url of urls) {
    const seen = new Map<string, Partial<CrossProcessCounts>>();
    for (let attempt = 0; attempt < 20 * workers && seen.size < workers; attempt++) {
      const series = (await scrape(url)).split('\n').flatMap((line) => {
        const match = SERIES.exec(line);
        return match
          ? [{ kind: match[1] as CrossProcessKind, worker: match[2] as string, count: Number(match[3]) }]
          : [];
      });
      if (series.length === 0 && attempt === 0 && workers === 1) break;
      for (const { kind, worker, count } of series) {
        const counts = seen.get(worker) ?? {};
        counts[kind] = count;
        seen.set(worker, counts);
      }
    }
    for (const counts of seen.values())
      for (const [kind, count] of Object.entries(counts)) sum[kind as CrossProcessKind] += count;
  }
  return sum;
}
