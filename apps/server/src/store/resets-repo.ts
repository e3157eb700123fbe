import type { Db } from './database.ts';

export interface ResetTokenRecord {
  id: string;
  clientId: string;
  /** SHA-256 of the token sent by e-mail; the token itself is never stored. */
  tokenHash: string;
  expireAt: string;
  usedAt: string | null;
  createdAt: string;
}

export interface CaptchaRecord {
  id: string;
  /** SHA-256 of `id:ANSWER`; the answer itself is never stored. */
  answerHash: string;
  expireAt: string;
  usedAt: string | null;
}

/** Password-reset tokens and the offline captchas: both single use, both short-lived. */
export interface ResetsRepo {
  insertResetToken(token: ResetTokenRecord): void;
  /** A token that is unused and not expired at `now`. */
  findLiveResetToken(tokenHash: string, now: string): ResetTokenRecord | undefined;
  /** Marks a live token used; returns it, or undefined when it was not live (used, expired, unknown). */
  useResetToken(tokenHash: string, now: string): ResetTokenRecord | undefined;
  /** Forgets the client's unused tokens, so only the newest link works. */
  deleteUnusedResetTokens(clientId: string): number;

  insertCaptcha(captcha: CaptchaRecord): void;
  /** Marks a live captcha used (one guess per captcha); returns it, or undefined when it was not live. */
  useCaptcha(id: string, now: string): CaptchaRecord | undefined;
  deleteExpiredCaptchas(now: string): number;
}

const RESET_COLUMNS =
  'id, client_id AS clientId, token_hash AS tokenHash, expire_at AS expireAt, used_at AS usedAt, created_at AS createdAt';
const CAPTCHA_COLUMNS = 'id, answer_hash AS answerHash, expire_at AS expireAt, used_at AS usedAt';

export function createResetsRepo(db: Db): ResetsRepo {
  const insertReset = db.prepare(
    'INSERT INTO reset_tokens (id, client_id, token_hash, expire_at, used_at, created_at) VALUES (@id, @clientId, @tokenHash, @expireAt, @usedAt, @createdAt)',
  );
  const liveReset = db.prepare<[string, string], ResetTokenRecord>(
    `SELECT ${RESET_COLUMNS} FROM reset_tokens WHERE token_hash = ? AND used_at IS NULL AND expire_at > ?`,
  );
  const useReset = db.prepare<[string, string, string], ResetTokenRecord>(
    `UPDATE reset_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expire_at > ? RETURNING ${RESET_COLUMNS}`,
  );
  const deleteUnused = db.prepare('DELETE FROM reset_tokens WHERE client_id = ? AND used_at IS NULL');
  const insertCaptcha = db.prepare(
    'INSERT INTO captchas (id, answer_hash, expire_at, used_at) VALUES (@id, @answerHash, @expireAt, @usedAt)',
  );
  const useCaptcha = db.prepare<[string, string, string], CaptchaRecord>(
    `UPDATE captchas SET used_at = ? WHERE id = ? AND used_at IS NULL AND expire_at > ? RETURNING ${CAPTCHA_COLUMNS}`,
  );
  const deleteCaptchas = db.prepare('DELETE FROM captchas WHERE expire_at <= ?');
  return {
    insertResetToken: (token) => void insertReset.run(token),
    findLiveResetToken: (tokenHash, now) => liveReset.get(tokenHash, now),
    useResetToken: (tokenHash, now) => useReset.get(now, tokenHash, now),
    deleteUnusedResetTokens: (clientId) => deleteUnused.run(clientId).changes,
    insertCaptcha: (captcha) => void insertCaptcha.run(captcha),
    useCaptcha: (id, now) => useCaptcha.get(now, id, now),
    deleteExpiredCaptchas: (now) => deleteCaptchas.run(now).changes,
  };
}
