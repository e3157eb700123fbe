import { readdirSync, readFileSync } from 'node:fs';

/** Linux counts process CPU time in clock ticks; 100 per second on every common kernel build. */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/PID/stat after the command name (which may hold spaces), or null. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc, or null when unreadable. */
export function cpuSeconds(pid: number | undefined): number | null {
  const fields = pid === undefined ? null : statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : null; // utime, stime
}

/**
 * CPU seconds (user + system) of a process's children that have exited and been waited for
 * (cutime + cstime): a server's short-lived backends, whose own readings are gone with them.
 */
export function exitedChildrenCpuSeconds(pid: number | undefined): number | null {
  const fields = pid === undefined ? null : statFields(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND : null;
}

/** The command name of a process (/proc/PID/comm), or null once it is gone. */
function commandOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * A process and its descendants (the service's WORKERS), by pid. Not tsx's esbuild service, which
 * a process under tsx starts while its transforms are not cached yet: it is tooling, neither a
 * worker nor the service's CPU.
 */
export function processTree(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    if (fields) parentOf.set(Number(name), Number(fields[1]));
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parentOf) {
      if (parent === tree[i] && commandOf(child) !== 'esbuild') tree.push(child);
    }
  }
  return tree;
}

/** CPU seconds of a process and its descendants together, or null when the process is unreadable. */
export function treeCpuSeconds(pid: number | undefined): number | null {
  const tree = processTree(pid);
  const own = cpuSeconds(pid);
  if (own === null) return null;
  return tree.slice(1).reduce((sum, child) => sum + (cpuSeconds(child) ?? 0), own);
}

/** CPU seconds of each process of a tree at one moment, by pid (see processTree). */
export type TreeCpu = Map<number, number>;

/** The CPU seconds of `pid` and of each of its descendants, read now. */
export function treeCpu(pid: number | undefined): TreeCpu {
  const readings: TreeCpu = new Map();
  for (const each of processTree(pid)) {
    const seconds = cpuSeconds(each);
    if (seconds !== null) readings.set(each, seconds);
  }
  return readings;
}

/** What one process of a tree used between two treeCpu readings. */
export interface ProcessCpu {
  pid: number;
  /** 'primary' (the tree's root) or 'worker'; a process alone is the 'service'. */
  role: 'service' | 'primary' | 'worker';
  cpuSeconds: number;
  /** Share of one core over `seconds` (1.0 = a whole core). */
  cores: number;
  cpuMsPerRound: number;
}

/**
 * Each process's own CPU between two readings of a tree rooted at `root`: a process that started
 * after `before` (a replacement worker) counts its whole life, one gone by `after` is left out (its time is lost with it).
 */
export function perProcessCpu(
  root: number,
  before: TreeCpu,
  after: TreeCpu,
  seconds: number,
  rounds: number,
): ProcessCpu[] {
  const alone = after.size === 1;
  return [...after].map(([pid, end]) => {
    const used = end - (before.get(pid) ?? 0);
    return {
      pid,
      role: pid === root ? (alone ? 'service' : 'primary') : 'worker',
      cpuSeconds: Math.round(used * 100) / 100,
      cores: Math.round((used / seconds) * 100) / 100,
      cpuMsPerRound: rounds > 0 ? Math.round(((used * 1000) / rounds) * 100) / 100 : 0,
    };
  });
}

/** Share of one core a process used between two cpuSeconds readings, as a percentage. */
export function corePercent(before: number | null, after: number | null, seconds: number): number | null {
  if (before === null || after === null || seconds <= 0) return null;
  return Math.round(((after - before) / seconds) * 100);
}
