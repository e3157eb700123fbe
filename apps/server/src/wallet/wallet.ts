/**
 * The wallet bridge (docs/contract.md §6): the service asks the operator's wallet to move the player's
 * money. Amounts here are integer minor units; the HTTP client turns them into the major-unit JSON
 * numbers of the wire.
 */

/** Who is playing: sent with every call (the balance call sends only these). */
export interface WalletPlayer {
  sessionId: string;
  userId: string;
  credential: string;
  currency: string;
}

export interface WalletMovement extends WalletPlayer {
  /** The idempotency key: a repeat must get the first answer. */
  transactionId: string;
  roundId: string;
  /** Minor units, positive. */
  amountMinor: number;
  gameId: string;
  gameModel: string;
  /** A free card's prize only: the promotion that gave the card (docs/wallet.md); absent otherwise. */
  promotionId?: string;
}

export interface WalletRollback extends WalletMovement {
  originalTransactionId: string;
}

/**
 * ok: a definite yes, with the balance after it. declined: a definite no (a 4xx with a code, e.g.
 * INSUFFICIENT_FUNDS). unknown: no definite answer (time-out, 5xx, network error, unreadable
 * answer): the money may or may not have moved.
 */
export type WalletAnswer =
  | { kind: 'ok'; balanceMinor: number }
  | { kind: 'declined'; code: string; message: string; httpStatus: number }
  | { kind: 'unknown'; reason: string };

export interface Wallet {
  balance(player: WalletPlayer): Promise<WalletAnswer>;
  bet(movement: WalletMovement): Promise<WalletAnswer>;
  prize(movement: WalletMovement): Promise<WalletAnswer>;
  rollback(movement: WalletRollback): Promise<WalletAnswer>;
}

/** What a profile needs to reach its wallet. */
export interface WalletProfile {
  id: string;
  type: 'operator' | 'integrator' | 'demo' | 'test';
  walletUrl: string | null;
  walletTokenSealed: string | null;
}

/** Picks the wallet of a profile: the built-in demo wallet for demo profiles, else its HTTP wallet. */
export interface WalletDirectory {
  forProfile(profile: WalletProfile): Wallet;
}
