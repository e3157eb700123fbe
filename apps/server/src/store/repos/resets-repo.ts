import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { CaptchaRecord, ResetTokenRecord } from '../records.ts';
import type { ResetsRepo } from '../repositories.ts';

const RESET_COLUMNS =
  'id, client_id AS "clientId", token_hash AS "tokenHash", expire_at AS "expireAt", used_at AS "usedAt", created_at AS "createdAt"';
const CAPTCHA_COLUMNS = 'id, answer_hash AS "answerHash", expire_at AS "expireAt", used_at AS "usedAt"';

const insertReset = statement<ResetTokenRecord>(
  `INSERT INTO reset_tokens (id, client_id, token_hash, expire_at, used_at, created_at)
   VALUES (:id, :clientId, :tokenHash, :expireAt, :usedAt, :createdAt)`,
);
const liveReset = statement<{ tokenHash: string; now: string }, ResetTokenRecord>(
  `SELECT ${RESET_COLUMNS} FROM reset_tokens WHERE token_hash = :tokenHash AND used_at IS NULL AND expire_at > :now`,
);
const useReset = statement<{ tokenHash: string; now: string }, ResetTokenRecord>(
  `UPDATE reset_tokens SET used_at = :now WHERE token_hash = :tokenHash AND used_at IS NULL AND expire_at > :now
   RETURNING ${RESET_COLUMNS}`,
);
const deleteUnused = statement<{ clientId: string }>(
  'DELETE FROM reset_tokens WHERE client_id = :clientId AND used_at IS NULL',
);
const insertCaptcha = statement<CaptchaRecord>(
  'INSERT INTO captchas (id, answer_hash, expire_at, used_at) VALUES (:id, :answerHash, :expireAt, :usedAt)',
);
const useCaptcha = statement<{ id: string; now: string }, CaptchaRecord>(
  `UPDATE captchas SET used_at = :now WHERE id = :id AND used_at IS NULL AND expire_at > :now
   RETURNING ${CAPTCHA_COLUMNS}`,
);
const deleteCaptchas = statement<{ now: string }>('DELETE FROM captchas WHERE expire_at <= :now');

export function createResetsRepo(x: Exec): ResetsRepo {
  return {
    insertResetToken: async (token) => void (await x.run(insertReset, token)),
    findLiveResetToken: async (tokenHash, now) => x.first(liveReset, { tokenHash, now }),
    useResetToken: async (tokenHash, now) => x.first(useReset, { tokenHash, now }),
    deleteUnusedResetTokens: async (clientId) => x.run(deleteUnused, { clientId }),
    insertCaptcha: async (captcha) => void (await x.run(insertCaptcha, captcha)),
    useCaptcha: async (id, now) => x.first(useCaptcha, { id, now }),
    deleteExpiredCaptchas: async (now) => x.run(deleteCaptchas, { now }),
  };
}
