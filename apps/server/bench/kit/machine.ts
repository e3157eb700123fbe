import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';

export interface Machine {
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  platform: string;
}

export function machine(): Machine {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** Resident set size of a process in MB, from /proc (Linux), or null when it cannot be read. */
export function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line?.[1] ? Math.round(Number(line[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** The 1-minute load average (what else the machine was doing), or null off Linux. */
export function loadAverage(): number | null {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}
