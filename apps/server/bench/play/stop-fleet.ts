import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { BenchChild } from '../kit/child.ts';
import { stopProcess } from '../kit/processes.ts';
import type { BenchDatabase } from './bench-database.ts';

/** What a play bench started; any part may be missing when the bench failed before starting it. */
export interface Fleet {
  load: BenchChild | undefined;
  services: ChildProcess[];
  operator: BenchChild | undefined;
  database: BenchDatabase | undefined;
  dataDirs: string[];
}

/** A fleet with nothing started yet, filled in as its parts start (startFleet). */
export const noFleet = (): Fleet => ({
  load: undefined,
  services: [],
  operator: undefined,
  database: undefined,
  dataDirs: [],
});

/** Stops a play bench's processes, players first so no round is left mid-way, and removes its files. */
export async function stopFleet({ load, services, operator, database, dataDirs }: Fleet): Promise<void> {
  await load?.ask('close').catch(() => {});
  await load?.stop();
  for (const each of services) await stopProcess(each);
  await operator?.stop();
  await database?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
