/**
 * Tells the operator's page (the parent frame) what happens, with postMessage to the profile's
 * allowedOrigins only (docs/contract.md §8): the browser delivers a message only when the target origin
 * matches the parent, so naming each allowed origin never leaks to anyone else. Messages from any
 * other origin are ignored. Amounts are major units, as in the API (12.5 = twelve and a half BRL).
 */
export type HostMessage =
  | { type: 'round-open'; roundId: string; price: number; currency: string; gameModel: string }
  | {
      type: 'round-close';
      roundId: string;
      won: boolean;
      level: number;
      prize: number;
      currency: string;
      gameModel: string;
    }
  | { type: 'balance'; balance: number; currency: string };

/** Everything the page sends carries these, so a parent can tell Raspa's messages apart. */
export interface HostEnvelope {
  source: 'raspa';
  sessionId: string;
}

/** The parts of `window` the bridge uses (a fake in the unit test). */
export interface BridgeWindow {
  parent: { postMessage(message: unknown, targetOrigin: string): void } | null;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** What a parent from an allowed origin may ask: `{ source: 'raspa-host', type: 'hello' }` answers `ready`. */
export interface HostRequest {
  source: 'raspa-host';
  type: 'hello';
}

export class HostBridge {
  private origins: string[] = [];
  private readonly listener = (event: MessageEvent) => this.receive(event);
  private ready: Record<string, unknown> = {};

  constructor(
    private readonly win: BridgeWindow,
    private readonly sessionId: string,
    private readonly framed: boolean,
  ) {
    win.addEventListener('message', this.listener);
  }

  /** The operator pages allowed to hear from the page (from the session's profile). */
  setAllowedOrigins(origins: readonly string[]): void {
    this.origins = origins.filter(isOrigin);
  }

  /** What a `hello` answer carries (the model, the balance…), kept current by the page. */
  setReadyInfo(info: Record<string, unknown>): void {
    this.ready = info;
  }

  send(message: HostMessage): void {
    if (!this.framed || !this.win.parent) return;
    const envelope: HostEnvelope & HostMessage = { source: 'raspa', sessionId: this.sessionId, ...message };
    for (const origin of this.origins) this.win.parent.postMessage(envelope, origin);
  }

  dispose(): void {
    this.win.removeEventListener('message', this.listener);
  }

  private receive(event: MessageEvent): void {
    if (!this.origins.includes(event.origin)) return; // not an allowed operator page: ignored
    const data = event.data as Partial<HostRequest> | null;
    if (data?.source !== 'raspa-host' || data.type !== 'hello') return;
    const source = event.source as { postMessage(message: unknown, targetOrigin: string): void } | null;
    source?.postMessage(
      { source: 'raspa', sessionId: this.sessionId, type: 'ready', ...this.ready },
      event.origin,
    );
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
