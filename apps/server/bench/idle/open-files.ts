import { readFileSync } from 'node:fs';

/**
 * A process's soft limit on open files (from /proc/<pid>/limits), or null when unreadable. Every
 * connection is a file descriptor, so it caps how many players one process can hold. Node already
 * raises its soft limit to the hard one at start-up; past that only `ulimit -Hn` (as root) helps.
 */
export function openFilesLimit(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
    if (!line?.[1]) return null;
    return line[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line[1]);
  } catch {
    return null;
  }
}
