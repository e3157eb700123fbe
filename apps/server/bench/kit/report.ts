import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Machine, machine } from './machine.ts';

/**
 * Where every bench writes its JSON (gitignored; docs/benchmarks.md quotes the runs it reports);
 * BENCH_RESULTS_DIR moves it (the bench's own test writes to a temporary folder).
 */
export const RESULTS_DIR =
  process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('../results/', import.meta.url));

export interface BenchReport<T> {
  bench: string;
  command: string;
  at: string;
  machine: Machine;
  result: T;
}

/**
 * Prints a bench's table under its command and the machine, and writes the JSON next to the
 * others; returns the file written.
 */
export function report<T>(bench: string, command: string, result: T, table: Record<string, unknown>): string {
  const full: BenchReport<T> = { bench, command, at: new Date().toISOString(), machine: machine(), result };
  const { cores, cpu, node } = full.machine;
  console.log(`\n${command}\nmachine: ${cores} cores (${cpu}), node ${node}\n`);
  console.table(table);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${bench}-${full.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
  console.log(`written: ${file}`);
  return file;
}
