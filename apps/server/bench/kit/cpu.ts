import { readFileSync } from 'node:fs';

/** Linux counts process CPU time in clock ticks; 100 per second on every common kernel build. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc, or null when unreadable. */
export function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
  } catch {
    return null;
  }
}

/** Share of one core a process used between two cpuSeconds readings, as a percentage. */
export function corePercent(before: number | null, after: number | null, seconds: number): number | null {
  if (before === null || after === null || seconds <= 0) return null;
  return Math.round(((after - before) / seconds) * 100);
}
