/**
 * A DATABASE_URL naming several servers, in libpq's own syntax, for a primary and its standbys
 * (docs/operating.md, "Failover"): `postgres://user@db1:5432,db2:5432/raspa?target_session_attrs=read-write`.
 * `pg` connects to one host only, so the URL is split here into one URL per host, tried in order
 * (database.ts); `target_session_attrs` says which server to keep: any that answers, or the one that
 * takes writes. A URL naming one host without the parameter is left exactly as given.
 */

export type SessionAttrs = 'any' | 'read-write';

export interface DatabaseHosts {
  /** One URL per server, in the order given, without `target_session_attrs`. */
  urls: string[];
  /** Each server's address, in the same order. */
  servers: Array<{ host: string; port: number }>;
  /** `read-write`: only a primary, not a standby in recovery (libpq's `read-write` and `primary`). */
  sessionAttrs: SessionAttrs;
}

const SHAPE = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/s;
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;
const DEFAULT_PORT = 5432;

/** The servers a DATABASE_URL names, or why it names none usable. */
export function parseDatabaseHosts(url: string): DatabaseHosts | { error: string } {
  const shape = SHAPE.exec(url);
  if (!shape) return { error: 'must be a postgres:// or postgresql:// URL' };
  const [, scheme = '', userinfo = '', hostList = '', rest = ''] = shape;
  const [pathPart = '', query] = splitOnce(rest, '?');
  const params = new URLSearchParams(query ?? '');
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (attrs !== 'any' && attrs !== 'read-write' && attrs !== 'primary')
    return { error: `target_session_attrs must be any, read-write or primary, not ${attrs}` };
  const sessionAttrs: SessionAttrs = attrs === 'any' ? 'any' : 'read-write';
  params.delete('target_session_attrs');
  const tail = pathPart + (params.size > 0 ? `?${params.toString()}` : '');
  const entries = hostList.split(',');
  if (entries.length === 1 && !query?.includes('target_session_attrs')) {
    const single = singleServer(url, entries[0] ?? '');
    if ('error' in single) return single;
    return { urls: [url], servers: [single], sessionAttrs };
  }
  const servers: DatabaseHosts['servers'] = [];
  const urls: string[] = [];
  for (const entry of entries) {
    const each = `${scheme}${userinfo}${entry}${tail}`;
    const server = singleServer(each, entry);
    if ('error' in server) return server;
    if (entry === '') return { error: 'names an empty host in its list of servers' };
    servers.push(server);
    urls.push(each);
  }
  return { urls, servers, sessionAttrs };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** One server's URL checked whole (WHATWG), and its host and port. */
function singleServer(url: string, entry: string): { host: string; port: number } | { error: string } {
  if (!URL.canParse(url)) return { error: `is not a URL (${entry || 'no host'})` };
  if (entry === '') return { host: '', port: DEFAULT_PORT };
  const parts = HOST_PORT.exec(entry);
  if (!parts) return { error: `names a host it cannot read: ${entry}` };
  const port = parts[2] === undefined ? DEFAULT_PORT : Number(parts[2]);
  const host = (parts[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  return { host: decodeURIComponent(host), port };
}

/**
 * The URL as a log or a banner may show it: its servers and database, with no user or password
 * (`postgres://db1:5432,db2:5432/raspa`); a single server's URL is read as the WHATWG parser does.
 */
export function databaseForLogs(url: string): string {
  const shape = SHAPE.exec(url);
  if (!shape) return '(not a postgres:// URL)';
  const [, scheme = '', , hostList = '', rest = ''] = shape;
  const path = splitOnce(rest, '?')[0];
  return `${scheme}${hostList}${path}`;
}
