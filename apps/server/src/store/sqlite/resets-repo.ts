import type { CaptchaRecord, ResetTokenRecord } from '../records.ts';
import type { ResetsRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const RESET_COLUMNS =
  'id, client_id AS clientId, token_hash AS tokenHash, expire_at AS expireAt, used_at AS usedAt, created_at AS createdAt';
const CAPTCHA_COLUMNS = 'id, answer_hash AS answerHash, expire_at AS expireAt, used_at AS usedAt';

export function createResetsRepo(db: Db): Sync<ResetsRepo> {
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
