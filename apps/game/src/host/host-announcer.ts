import { type PlayRound, toMajor } from '@raspa/core';
import type { HostBridge } from './host-bridge.ts';

/**
 * What the operator's page hears, each thing once: a round opened, a round closed, a new balance.
 * Amounts are converted to major units here, as the API sends them.
 */
export class HostAnnouncer {
  private readonly opened = new Set<string>();
  private readonly closed = new Set<string>();
  private lastBalance: number | null = null;
  private game = { gameModel: '', currency: 'BRL' };

  constructor(private readonly bridge: HostBridge) {}

  /** The session's game and the operator pages allowed to hear from the page. */
  setGame(gameModel: string, currency: string, allowedOrigins: readonly string[]): void {
    this.game = { gameModel, currency };
    this.bridge.setAllowedOrigins(allowedOrigins);
  }

  /** True once a round has been announced closed (the buy button then says "buy another"). */
  get anyClosed(): boolean {
    return this.closed.size > 0;
  }

  roundOpened(round: PlayRound): void {
    if (this.opened.has(round.roundId)) return;
    this.opened.add(round.roundId);
    this.bridge.send({
      type: 'round-open',
      roundId: round.roundId,
      price: this.major(round.price),
      currency: this.game.currency,
      gameModel: this.game.gameModel,
    });
  }

  roundClosed(round: PlayRound): void {
    if (this.closed.has(round.roundId)) return;
    this.closed.add(round.roundId);
    this.bridge.send({
      type: 'round-close',
      roundId: round.roundId,
      won: round.level > 0,
      level: round.level,
      prize: this.major(round.prize),
      currency: this.game.currency,
      gameModel: this.game.gameModel,
    });
  }

  balance(balance: number): void {
    if (balance === this.lastBalance) return;
    this.lastBalance = balance;
    const major = this.major(balance);
    this.bridge.setReadyInfo({
      gameModel: this.game.gameModel,
      balance: major,
      currency: this.game.currency,
    });
    this.bridge.send({ type: 'balance', balance: major, currency: this.game.currency });
  }

  private major(minor: number): number {
    return toMajor(minor, this.game.currency);
  }
}
