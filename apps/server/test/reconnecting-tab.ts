import { io, type Socket } from 'socket.io-client';
import { eventually } from './play-fixtures.ts';

/** A player's page as Socket.IO runs it: it reconnects by itself after a lost connection. */
export interface Tab {
  socket: Socket;
  /** Why its connection dropped, each time. */
  drops: string[];
  /** The answer, 'lost' when the connection dropped first, 'unanswered' after 45 s without either. */
  ask(event: string, payload?: unknown): Promise<any>;
}

/** Connects a tab of the player of `token` to `url` (an instance, or the load balancer). */
export async function openTab(url: string, token: string): Promise<Tab> {
  const socket = io(`${url}/play`, {
    auth: { token },
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const drops: string[] = [];
  socket.on('disconnect', (reason) => drops.push(reason));
  return {
    socket,
    drops,
    ask: (event, payload) =>
      new Promise((resolve) => {
        const lost = () => resolve('lost');
        socket.once('disconnect', lost);
        const answered = (error: Error | null, answer: unknown) => {
          socket.off('disconnect', lost);
          resolve(error ? 'unanswered' : answer);
        };
        // A ceiling against a hang, so a request left without an answer fails the test with its name.
        const timed = socket.timeout(45_000);
        if (payload === undefined) timed.emit(event, answered);
        else timed.emit(event, payload, answered);
      }),
  };
}

/** What a fleet of tabs met while playing on (playOn). */
export interface Play {
  /** Rounds a buy answered open. */
  opened: string[];
  /** Requests that got no answer while their connection stayed up (45 s passed). */
  unanswered: string[];
  /**
   * Requests whose connection closed before an answer: sent in the instant the stopping instance
   * closed the socket, after it had answered everything it received (graceful-stop.test.ts shows
   * that part). They reached no one, or their answer did not come back; the page reconnects, reads
   * its state and shows (and reveals) the round if the buy was taken, as after any lost connection.
   */
  lostOnTheWire: string[];
  /** Refusals the scenario expects (`playOn`'s `expected`), by code. */
  refused: Record<string, number>;
  /** Other refusals than those, a stop's or a round already open. */
  unexpected: string[];
  stopping: number;
}

export const newPlay = (): Play => ({
  opened: [],
  unanswered: [],
  lostOnTheWire: [],
  refused: {},
  unexpected: [],
  stopping: 0,
});

/** Several groups' plays as one. */
export function mergedPlay(plays: readonly Play[]): Play {
  const merged = newPlay();
  for (const play of plays) {
    merged.opened.push(...play.opened);
    merged.unanswered.push(...play.unanswered);
    merged.lostOnTheWire.push(...play.lostOnTheWire);
    merged.unexpected.push(...play.unexpected);
    merged.stopping += play.stopping;
    for (const [code, count] of Object.entries(play.refused))
      merged.refused[code] = (merged.refused[code] ?? 0) + count;
  }
  return merged;
}

/** Until the connection the tab had when it was refused has dropped and the tab is connected again. */
async function reconnected(tab: Tab, dropsBefore: number): Promise<void> {
  await eventually(() => tab.drops.length > dropsBefore && tab.socket.connected);
}

/** Reveals the round the tab's player has open, if any (as the page does when it comes back). */
export async function revealOpen(tab: Tab): Promise<void> {
  const state = await tab.ask('state');
  const open = state?.ok ? state.data.openRound : null;
  if (open?.status === 'open') await tab.ask('reveal', { roundId: open.roundId });
}

/**
 * A player who buys and reveals without pause until `playing()` is false, as a page would. A
 * refusal coded in `expected` is counted and play goes on (a wallet slower than its time-out on a
 * loaded machine, WALLET_UNAVAILABLE, always is); SERVICE_STOPPING waits for the page to reconnect.
 */
export async function playOn(
  tab: Tab,
  playing: () => boolean,
  play: Play,
  expected: readonly string[] = [],
): Promise<void> {
  const counted = new Set(['WALLET_UNAVAILABLE', ...expected]);
  const refused = async (what: string, answer: any, drops: number) => {
    if (answer === 'lost') {
      play.lostOnTheWire.push(what);
      await reconnected(tab, drops);
      await revealOpen(tab);
    } else if (answer === 'unanswered') {
      play.unanswered.push(what);
      await reconnected(tab, drops);
    } else if (answer.error.code === 'SERVICE_STOPPING') {
      // "The game is restarting": the page waits for its socket to come back through HAProxy.
      play.stopping++;
      await reconnected(tab, drops);
    } else if (answer.error.code === 'ROUND_IN_PROGRESS') await revealOpen(tab);
    else if (counted.has(answer.error.code))
      play.refused[answer.error.code] = (play.refused[answer.error.code] ?? 0) + 1;
    else play.unexpected.push(`${what} ${answer.error.code}`);
  };
  while (playing()) {
    const drops = tab.drops.length;
    const bought = await tab.ask('buy');
    if (bought === 'lost' || bought === 'unanswered' || !bought.ok) {
      await refused('buy', bought, drops);
      continue;
    }
    play.opened.push(bought.data.round.roundId);
    const revealed = await tab.ask('reveal', { roundId: bought.data.round.roundId });
    if (revealed === 'lost' || revealed === 'unanswered' || !revealed.ok)
      await refused('reveal', revealed, drops);
  }
}
