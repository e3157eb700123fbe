import { describe, expect, it } from 'vitest';
import type { Exec } from '../dialect/exec.ts';
import { openDatabase } from '../sqlite/database.ts';
import { createSqliteExec } from '../sqlite/exec.ts';
import { createPromotionsRepo } from './promotions-repo.ts';

/** An executor that counts the statements it runs. */
function counting(x: Exec): Exec & { statements: number } {
  const counted: Exec & { statements: number } = {
    dialect: x.dialect,
    get inUnit() {
      return x.inUnit;
    },
    statements: 0,
    all(s, p) {
      counted.statements++;
      return x.all(s, p);
    },
    first(s, p) {
      counted.statements++;
      return x.first(s, p);
    },
    run(s, p) {
      counted.statements++;
      return x.run(s, p);
    },
    atomic: (work) => x.atomic(work),
  };
  return counted;
}

const NOW = '2030-01-01T00:00:00.000Z';

describe('promotions repository', () => {
  it('checks and grants 10,000 players in one statement each, not one per player', async () => {
    const db = openDatabase(':memory:');
    db.exec(`INSERT INTO api_clients (id, name, email, api_key_hash, password_hash, created_at)
      VALUES ('c', 'C', 'c@example.test', 'k', 'p', '${NOW}')`);
    db.exec(`INSERT INTO profiles (id, client_id, name, type, currency, created_at, updated_at)
      VALUES ('pr', 'c', 'P', 'demo', 'BRL', '${NOW}', '${NOW}')`);
    db.exec(`INSERT INTO games (id, client_id, profile_id, game_model, version, active, lang, currency, rtp_ppm,
      sampling, prized_ppm, bet_minor, ladder_json, created_at)
      VALUES ('g', 'c', 'pr', 'oxe-ganhei', 1, 1, 'pt', 'BRL', 900000, 1000000, 300000, 200, '{}', '${NOW}')`);
    const ids = Array.from({ length: 10_000 }, (_, i) => `player-${i}`);
    const insertPlayer =
      db.prepare(`INSERT INTO players (id, client_id, profile_id, credential, credential_type,
      created_at) VALUES (?, 'c', 'pr', ?, 'external', '${NOW}')`);
    db.transaction(() => {
      for (const id of ids) insertPlayer.run(id, id);
    })();
    const x = counting(createSqliteExec(db));
    const repo = createPromotionsRepo(x);
    await repo.insert({
      id: 'promo',
      clientId: 'c',
      profileId: 'pr',
      gameId: 'g',
      name: 'Welcome',
      cardsPerPlayer: 2,
      startAt: NOW,
      expireAt: '2030-01-02T00:00:00.000Z',
      cancelledAt: null,
      createdAt: NOW,
    });

    x.statements = 0;
    expect(await repo.notPlayersOf('pr', [...ids, 'ghost'])).toEqual(['ghost']);
    expect(await repo.grant('promo', 'pr', ids, 2)).toBe(10_000);
    expect(await repo.grant('promo', 'pr', ids, 2)).toBe(0);
    expect(x.statements).toBe(3);
    expect(Object.fromEntries(await repo.figuresOf(['promo']))).toEqual({
      promo: { players: 10_000, granted: 20_000, used: 0, prizesMinor: 0 },
    });
    db.close();
  });
});
