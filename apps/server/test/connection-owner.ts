import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Which of `pids` holds the TCP connection whose local end is `port` on this machine (Linux /proc):
 * the connection's inode from /proc/net/tcp{,6}, then the process with a descriptor on it. For
 * tests that must know which process of the service sent a request (the receiver sees its port).
 */
export function connectionOwner(port: number, pids: readonly number[]): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[] = [];
    try {
      lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      // fields: sl, local address:port, remote address:port, state, …, inode at index 9
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[9]) inodes.add(`socket:[${fields[9]}]`);
    }
  }
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
