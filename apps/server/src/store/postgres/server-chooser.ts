import type { DatabaseHosts } from './database-hosts.ts';

export interface ChosenServer {
  host: string;
  port: number;
  url: string;
}

/**
 * Which of a DATABASE_URL's servers new connections go to (docs/operating.md, "Failover"): the one
 * found last, until a connection to it fails or finds it no longer qualifies; then the servers are
 * tried again in the URL's order, as libpq does, and the first that qualifies is kept. Searches
 * are shared, so a pool refilling after a failover probes each server once, not once per connection.
 */
export interface ServerChooser {
  choose(): Promise<ChosenServer>;
  /** A connection to `url` failed, or the server no longer qualifies: search again next time. */
  forget(url: string): void;
}

/**
 * `qualifies` connects to one server's URL and answers whether it is one to keep (any server that
 * answers, or one whose transactions may write); it throws when the server cannot be reached.
 */
export function createServerChooser(
  hosts: DatabaseHosts,
  qualifies: (url: string) => Promise<boolean>,
): ServerChooser {
  const servers = hosts.urls.map((url, i) => ({
    ...(hosts.servers[i] as { host: string; port: number }),
    url,
  }));
  let chosen: ChosenServer | undefined;
  let search: Promise<ChosenServer> | undefined;

  async function searchInOrder(): Promise<ChosenServer> {
    const refused: string[] = [];
    for (const server of servers) {
      const name = `${server.host}:${server.port}`;
      try {
        if (await qualifies(server.url)) return server;
        refused.push(`${name} takes no writes`);
      } catch (error) {
        refused.push(`${name}: ${(error as Error).message}`);
      }
    }
    throw new Error(
      `no database server to use (target_session_attrs=${hosts.sessionAttrs}): ${refused.join('; ')}`,
    );
  }

  return {
    choose() {
      if (chosen) return Promise.resolve(chosen);
      search ??= searchInOrder().then(
        (server) => {
          search = undefined;
          chosen = server;
          return server;
        },
        (error: unknown) => {
          search = undefined;
          throw error;
        },
      );
      return search;
    },
    forget(url) {
      if (chosen?.url === url) chosen = undefined;
    },
  };
}
