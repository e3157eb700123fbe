import type { CaptchaRecord, ResetTokenRecord } from '../records.ts';
import type { ResetsRepo } from '../repositories.ts';
import { changes, first, type Sql } from './sql.ts';

const RESET_COLUMNS =
  'id, client_id AS "clientId", token_hash AS "tokenHash", expire_at AS "expireAt", used_at AS "usedAt", created_at AS "createdAt"';
const CAPTCHA_COLUMNS = 'id, answer_hash AS "answerHash", expire_at AS "expireAt", used_at AS "usedAt"';

export function createResetsRepo(sql: Sql): ResetsRepo {
  return {
    insertResetToken: async (t) =>
      void (await sql.query(
        'INSERT INTO reset_tokens (id, client_id, token_hash, expire_at, used_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [t.id, t.clientId, t.tokenHash, t.expireAt, t.usedAt, t.createdAt],
      )),
    findLiveResetToken: (tokenHash, now) =>
      first<ResetTokenRecord>(
        sql,
        `SELECT ${RESET_COLUMNS} FROM reset_tokens WHERE token_hash = $1 AND used_at IS NULL AND expire_at > $2`,
        [tokenHash, now],
      ),
    useResetToken: (tokenHash, now) =>
      first<ResetTokenRecord>(
        sql,
        `UPDATE reset_tokens SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expire_at > $1
         RETURNING ${RESET_COLUMNS}`,
        [now, tokenHash],
      ),
    deleteUnusedResetTokens: (clientId) =>
      changes(sql, 'DELETE FROM reset_tokens WHERE client_id = $1 AND used_at IS NULL', [clientId]),
    insertCaptcha: async (c) =>
      void (await sql.query(
        'INSERT INTO captchas (id, answer_hash, expire_at, used_at) VALUES ($1, $2, $3, $4)',
        [c.id, c.answerHash, c.expireAt, c.usedAt],
      )),
    useCaptcha: (id, now) =>
      first<CaptchaRecord>(
        sql,
        `UPDATE captchas SET used_at = $1 WHERE id = $2 AND used_at IS NULL AND expire_at > $1 RETURNING ${CAPTCHA_COLUMNS}`,
        [now, id],
      ),
    deleteExpiredCaptchas: (now) => changes(sql, 'DELETE FROM captchas WHERE expire_at <= $1', [now]),
  };
}
