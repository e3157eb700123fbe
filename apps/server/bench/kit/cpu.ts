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

/** A process and its descendants (the service's WORKERS), by pid. */
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
    for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
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

/** Share of one core a process used between two cpuSeconds readings, as a percentage. */
export function corePercent(before: number | null, after: number | null, seconds: number): number | null {
  if (before === null || after === null || seconds <= 0) return null;
  return Math.round(((after - before) / seconds) * 100);
}
