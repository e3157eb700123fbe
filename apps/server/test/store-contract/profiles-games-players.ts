import { describe, expect, it } from 'vitest';
import {
  at,
  gameRecord,
  MAX_MINOR,
  type OpenStore,
  playerRecord,
  profileRecord,
  seedClient,
  seedGame,
  seedPlayer,
  seedProfile,
  seedRound,
  seedSeat,
  sessionRecord,
  userTokenRecord,
  useStore,
} from './fixtures.ts';

/** ProfilesRepo, GamesRepo, PlayersRepo and SessionsRepo. */
export function describeProfilesGamesPlayersContract(open: OpenStore): void {
  describe('profiles', () => {
    const store = useStore(open);

    it('gives an inserted profile back by id, lists and nulls as written', async () => {
      const client = await seedClient(store());
      const bare = profileRecord(client.id, { currencies: null, walletUrl: null, walletTokenSealed: null });
      const listed = profileRecord(client.id, {
        type: 'demo',
        currency: 'USD',
        currencies: ['USD', 'BRL', 'KWD'],
        allowedOrigins: ['https://casino.example', 'https://m.casino.example'],
      });
      await store().profiles.insert(bare);
      await store().profiles.insert(listed);
      expect(await store().profiles.findById(bare.id)).toEqual(bare);
      expect(await store().profiles.findById(listed.id)).toEqual(listed);
      expect(await store().profiles.findById('nope')).toBeUndefined();
    });

    it('updates every editable field', async () => {
      const client = await seedClient(store());
      const profile = await seedProfile(store(), client.id);
      const changed = {
        ...profile,
        name: 'Renamed',
        type: 'integrator' as const,
        currency: 'EUR',
        currencies: ['EUR'],
        walletUrl: null,
        walletTokenSealed: null,
        allowedOrigins: ['https://new.example'],
        updatedAt: at(60),
      };
      await store().profiles.update(changed);
      expect(await store().profiles.findById(profile.id)).toEqual(changed);
    });

    it('lists one client’s profiles by creation, paged, with the total', async () => {
      const client = await seedClient(store());
      const other = await seedClient(store());
      const third = await seedProfile(store(), client.id, { createdAt: at(30) });
      const first = await seedProfile(store(), client.id, { createdAt: at(10) });
      const second = await seedProfile(store(), client.id, { createdAt: at(20) });
      await seedProfile(store(), other.id, { createdAt: at(15) });

      expect(await store().profiles.listByClient(client.id, { pageIndex: 1, pageSize: 10 })).toEqual({
        items: [first, second, third],
        totalCount: 3,
      });
      expect(await store().profiles.listByClient(client.id, { pageIndex: 2, pageSize: 2 })).toEqual({
        items: [third],
        totalCount: 3,
      });
      expect(await store().profiles.listByClient(client.id, { pageIndex: 3, pageSize: 2 })).toEqual({
        items: [],
        totalCount: 3,
      });
    });

    it('lists nothing for a client without profiles', async () => {
      const client = await seedClient(store());
      expect(await store().profiles.listByClient(client.id, { pageIndex: 1, pageSize: 10 })).toEqual({
        items: [],
        totalCount: 0,
      });
    });
  });

  describe('games', () => {
    const store = useStore(open);
    const profile = async () => seedProfile(store(), (await seedClient(store())).id);

    it('gives an inserted game back by id, its ladder and money exact', async () => {
      const game = gameRecord(await profile(), { active: false, betMinor: MAX_MINOR, version: 3 });
      await store().games.insert(game);
      expect(await store().games.findById(game.id)).toEqual(game);
      expect(await store().games.findById('nope')).toBeUndefined();
    });

    it('finds the active version of (profile, model), and nothing when none is active', async () => {
      const owner = await profile();
      await seedGame(store(), owner, { version: 1, active: false });
      const active = await seedGame(store(), owner, { version: 2, active: true });
      await seedGame(store(), owner, { gameModel: 'frevo-da-sorte', active: false });
      expect(await store().games.findActive(owner.id, 'oxe-ganhei')).toEqual(active);
      expect(await store().games.findActive(owner.id, 'frevo-da-sorte')).toBeUndefined();
      expect(await store().games.findActive(owner.id, 'fera-sortuda')).toBeUndefined();
    });

    it('refuses a second active version of one (profile, model)', async () => {
      const owner = await profile();
      const active = await seedGame(store(), owner, { version: 1, active: true });
      await expect(store().games.insert(gameRecord(owner, { version: 2, active: true }))).rejects.toThrow();
      expect(await store().games.findActive(owner.id, 'oxe-ganhei')).toEqual(active);
      expect(await store().games.listByProfile(owner.id)).toEqual([active]);
    });

    it('allows one active version per model and per profile, and any number of inactive ones', async () => {
      const owner = await profile();
      const another = await profile();
      await seedGame(store(), owner, { version: 1, active: true });
      await seedGame(store(), owner, { version: 2, active: false });
      await seedGame(store(), owner, { version: 3, active: false });
      await seedGame(store(), owner, { gameModel: 'frevo-da-sorte', active: true });
      await seedGame(store(), another, { version: 1, active: true });
      expect(await store().games.listByProfile(owner.id)).toHaveLength(4);
    });

    it('refuses activating a second version while another is active', async () => {
      const owner = await profile();
      await seedGame(store(), owner, { version: 1, active: true });
      const second = await seedGame(store(), owner, { version: 2, active: false });
      await expect(store().games.setActive(second.id, true)).rejects.toThrow();
      expect((await store().games.findById(second.id))?.active).toBe(false);
    });

    it('refuses a repeated version of one (profile, model)', async () => {
      const owner = await profile();
      await seedGame(store(), owner, { version: 1, active: false });
      await expect(store().games.insert(gameRecord(owner, { version: 1, active: false }))).rejects.toThrow();
    });

    it('gives the last version of (profile, model), 0 when there is none', async () => {
      const owner = await profile();
      expect(await store().games.lastVersion(owner.id, 'oxe-ganhei')).toBe(0);
      await seedGame(store(), owner, { version: 1, active: false });
      await seedGame(store(), owner, { version: 7, active: false });
      await seedGame(store(), owner, { version: 3, active: true });
      await seedGame(store(), owner, { gameModel: 'frevo-da-sorte', version: 12 });
      expect(await store().games.lastVersion(owner.id, 'oxe-ganhei')).toBe(7);
      expect(await store().games.lastVersion(owner.id, 'frevo-da-sorte')).toBe(12);
      expect(await store().games.lastVersion(owner.id, 'fera-sortuda')).toBe(0);
    });

    it('lists every version of every model of a profile, by model then version', async () => {
      const owner = await profile();
      const oxe2 = await seedGame(store(), owner, { version: 2, active: true });
      const frevo1 = await seedGame(store(), owner, {
        gameModel: 'frevo-da-sorte',
        version: 1,
        active: false,
      });
      const oxe1 = await seedGame(store(), owner, { version: 1, active: false });
      const frevo2 = await seedGame(store(), owner, {
        gameModel: 'frevo-da-sorte',
        version: 2,
        active: true,
      });
      await seedGame(store(), await profile());
      expect(await store().games.listByProfile(owner.id)).toEqual([frevo1, frevo2, oxe1, oxe2]);
      expect(await store().games.listByProfile('no-profile')).toEqual([]);
    });

    it('sets a version active and inactive', async () => {
      const owner = await profile();
      const game = await seedGame(store(), owner, { active: false });
      await store().games.setActive(game.id, true);
      expect(await store().games.findById(game.id)).toEqual({ ...game, active: true });
      await store().games.setActive(game.id, false);
      expect(await store().games.findById(game.id)).toEqual({ ...game, active: false });
    });

    it('deactivates the active version of (profile, model) but keepId, returning how many', async () => {
      const owner = await profile();
      const old = await seedGame(store(), owner, { version: 1, active: true });
      const next = await seedGame(store(), owner, { version: 2, active: false });
      const otherModel = await seedGame(store(), owner, { gameModel: 'frevo-da-sorte', active: true });

      expect(await store().games.deactivateOthers(owner.id, 'oxe-ganhei', next.id)).toBe(1);
      expect((await store().games.findById(old.id))?.active).toBe(false);
      await store().games.setActive(next.id, true);
      expect(await store().games.findActive(owner.id, 'oxe-ganhei')).toEqual({ ...next, active: true });
      expect(await store().games.findById(otherModel.id)).toEqual(otherModel);
    });

    it('keeps keepId active when it is the active one: deactivates nothing', async () => {
      const owner = await profile();
      const active = await seedGame(store(), owner, { version: 1, active: true });
      await seedGame(store(), owner, { version: 2, active: false });
      expect(await store().games.deactivateOthers(owner.id, 'oxe-ganhei', active.id)).toBe(0);
      expect(await store().games.findActive(owner.id, 'oxe-ganhei')).toEqual(active);
    });
  });

  describe('players', () => {
    const store = useStore(open);
    const profile = async (currency = 'BRL') =>
      seedProfile(store(), (await seedClient(store())).id, { currency });

    it('gives an inserted player back by id, its figures exact', async () => {
      const player = playerRecord(await profile(), {
        credentialType: 'username',
        balanceMinor: MAX_MINOR,
        betWins: 3,
        totalBets: 7,
      });
      await store().players.insert(player);
      expect(await store().players.findById(player.id)).toEqual(player);
      expect(await store().players.findById('nope')).toBeUndefined();
    });

    it('finds a player by (profile, credential type, credential) only', async () => {
      const owner = await profile();
      const elsewhere = await profile();
      const byEmail = await seedPlayer(store(), owner, { credential: 'ana', credentialType: 'email' });
      const byName = await seedPlayer(store(), owner, { credential: 'ana', credentialType: 'username' });
      const there = await seedPlayer(store(), elsewhere, { credential: 'ana', credentialType: 'email' });
      expect(await store().players.findByCredential(owner.id, 'email', 'ana')).toEqual(byEmail);
      expect(await store().players.findByCredential(owner.id, 'username', 'ana')).toEqual(byName);
      expect(await store().players.findByCredential(elsewhere.id, 'email', 'ana')).toEqual(there);
      expect(await store().players.findByCredential(owner.id, 'phone', 'ana')).toBeUndefined();
      expect(await store().players.findByCredential(owner.id, 'email', 'bia')).toBeUndefined();
    });

    it('refuses a second player with the same (profile, credential type, credential)', async () => {
      const owner = await profile();
      await seedPlayer(store(), owner, { credential: 'ana', credentialType: 'email' });
      await expect(
        store().players.insert(playerRecord(owner, { credential: 'ana', credentialType: 'email' })),
      ).rejects.toThrow();
    });

    it('lists a profile’s players by creation, paged, with the total', async () => {
      const owner = await profile();
      const c = await seedPlayer(store(), owner, { createdAt: at(30) });
      const a = await seedPlayer(store(), owner, { createdAt: at(10) });
      const b = await seedPlayer(store(), owner, { createdAt: at(20) });
      await seedPlayer(store(), await profile(), { createdAt: at(15) });
      expect(await store().players.listByProfile(owner.id, { pageIndex: 1, pageSize: 10 })).toEqual({
        items: [a, b, c],
        totalCount: 3,
      });
      expect(await store().players.listByProfile(owner.id, { pageIndex: 1, pageSize: 2 })).toEqual({
        items: [a, b],
        totalCount: 3,
      });
      expect(await store().players.listByProfile(owner.id, { pageIndex: 2, pageSize: 2 })).toEqual({
        items: [c],
        totalCount: 3,
      });
      expect(await store().players.listByProfile(owner.id, { pageIndex: 9, pageSize: 2 })).toEqual({
        items: [],
        totalCount: 3,
      });
    });

    it('searches credentials by substring ignoring case, also beyond ASCII', async () => {
      const owner = await profile();
      const joao = await seedPlayer(store(), owner, { credential: 'João.Pereira@x.test', createdAt: at(1) });
      const nandu = await seedPlayer(store(), owner, {
        credential: 'ÑANDÚ',
        credentialType: 'username',
        createdAt: at(2),
      });
      const maria = await seedPlayer(store(), owner, { credential: 'maria@JOÃO.test', createdAt: at(3) });
      const list = (search: string) =>
        store().players.listByProfile(owner.id, { pageIndex: 1, pageSize: 10 }, search);
      expect(await list('joão')).toEqual({ items: [joao, maria], totalCount: 2 });
      expect(await list('JOÃO')).toEqual({ items: [joao, maria], totalCount: 2 });
      expect(await list('ñandú')).toEqual({ items: [nandu], totalCount: 1 });
      expect(await list('PEREIRA@')).toEqual({ items: [joao], totalCount: 1 });
      expect(await list('nobody')).toEqual({ items: [], totalCount: 0 });
    });

    it('takes % and _ in a search literally', async () => {
      const owner = await profile();
      const percent = await seedPlayer(store(), owner, { credential: '100%_sure', createdAt: at(1) });
      await seedPlayer(store(), owner, { credential: '100xxsure', createdAt: at(2) });
      await seedPlayer(store(), owner, { credential: 'a\\b', createdAt: at(3) });
      const list = (search: string) =>
        store().players.listByProfile(owner.id, { pageIndex: 1, pageSize: 10 }, search);
      expect(await list('%_')).toEqual({ items: [percent], totalCount: 1 });
      expect(await list('0%')).toEqual({ items: [percent], totalCount: 1 });
      expect((await list('\\')).totalCount).toBe(1);
    });

    it('pages a search, the total counting every match', async () => {
      const owner = await profile();
      const players = [];
      for (let i = 0; i < 5; i++) {
        players.push(await seedPlayer(store(), owner, { credential: `match-${i}`, createdAt: at(i) }));
      }
      await seedPlayer(store(), owner, { credential: 'other', createdAt: at(9) });
      expect(await store().players.listByProfile(owner.id, { pageIndex: 2, pageSize: 2 }, 'MATCH')).toEqual({
        items: players.slice(2, 4),
        totalCount: 5,
      });
    });

    it('finds the player of a userToken until it expires', async () => {
      const player = await seedPlayer(store(), await profile());
      const token = userTokenRecord(player.id, { expireAt: at(7200) });
      await store().players.insertUserToken(token);
      expect(await store().players.findByLiveUserToken(token.tokenHash, at(7199))).toEqual(player);
      expect(await store().players.findByLiveUserToken(token.tokenHash, at(7200))).toBeUndefined();
      expect(await store().players.findByLiveUserToken('unknown', at(0))).toBeUndefined();
    });

    it('knows no balance of a player the wallet never reported', async () => {
      const player = await seedPlayer(store(), await profile());
      expect(await store().players.balanceIn(player.id, 'BRL')).toBeUndefined();
      expect(await store().players.balancesOf([player.id])).toEqual(new Map([[player.id, {}]]));
    });

    it('keeps the last reported balance per currency', async () => {
      const seat = await seedSeat(store(), { profile: { currency: 'BRL' } });
      const id = seat.player.id;
      await store().rounds.updatePlayer(id, 'BRL', 1500, 1, 0);
      await store().rounds.updatePlayer(id, 'USD', 300, 1, 0);
      await store().rounds.updatePlayer(id, 'BRL', 1250, 1, 1);
      expect(await store().players.balanceIn(id, 'BRL')).toBe(1250);
      expect(await store().players.balanceIn(id, 'USD')).toBe(300);
      expect(await store().players.balanceIn(id, 'EUR')).toBeUndefined();
    });

    it('gives every currency’s balance of each player asked for, {} for one without', async () => {
      const seat = await seedSeat(store());
      const a = seat.player;
      const b = await seedPlayer(store(), seat.profile);
      const quiet = await seedPlayer(store(), seat.profile);
      await store().rounds.updatePlayer(a.id, 'BRL', 1000, 0, 0);
      await store().rounds.updatePlayer(a.id, 'KWD', 12_345, 0, 0);
      await store().rounds.updatePlayer(b.id, 'USD', MAX_MINOR, 0, 0);
      const balances = await store().players.balancesOf([a.id, b.id, quiet.id, 'unknown']);
      expect(balances).toEqual(
        new Map([
          [a.id, { BRL: 1000, KWD: 12_345 }],
          [b.id, { USD: MAX_MINOR }],
          [quiet.id, {}],
          ['unknown', {}],
        ]),
      );
      expect(await store().players.balancesOf([b.id])).toEqual(new Map([[b.id, { USD: MAX_MINOR }]]));
      expect(await store().players.balancesOf([])).toEqual(new Map());
    });
  });

  describe('sessions', () => {
    const store = useStore(open);

    it('gives an inserted session back by id, as written', async () => {
      const seat = await seedSeat(store());
      const session = sessionRecord(seat.player, seat.game, {
        lang: 'es',
        returnUrl: 'https://casino.example/lobby',
      });
      await store().sessions.insert(session);
      expect(await store().sessions.findById(session.id)).toEqual(session);
      expect(await store().sessions.findById(seat.session.id)).toEqual(seat.session);
      expect(await store().sessions.findById('nope')).toBeUndefined();
    });

    it('finds the session of a token until it expires', async () => {
      const seat = await seedSeat(store());
      const session = sessionRecord(seat.player, seat.game, { expireAt: at(7200) });
      await store().sessions.insert(session);
      expect(await store().sessions.findLiveByTokenHash(session.tokenHash, at(7199))).toEqual(session);
      expect(await store().sessions.findLiveByTokenHash(session.tokenHash, at(7200))).toBeUndefined();
      expect(await store().sessions.findLiveByTokenHash('unknown', at(0))).toBeUndefined();
    });

    it('ends one session once, and every live session of a player in one statement', async () => {
      const seat = await seedSeat(store());
      const later = sessionRecord(seat.player, seat.game, { createdAt: at(10) });
      const expired = sessionRecord(seat.player, seat.game, { expireAt: at(100) });
      for (const session of [later, expired]) await store().sessions.insert(session);
      const live = await store().sessions.liveOfPlayer(seat.player.id, at(100), {
        pageIndex: 1,
        pageSize: 10,
      });
      expect(live).toEqual({
        items: [later, seat.session].map(({ id, gameId, createdAt, expireAt }) => ({
          id,
          gameId,
          createdAt,
          expireAt,
        })),
        totalCount: 2,
      });

      expect(await store().sessions.end(later.id, 'SESSION_ENDED', at(200))).toBe(true);
      expect(await store().sessions.end(later.id, 'PLAYER_EXCLUDED', at(300))).toBe(false);
      // Still found by its token (the caller answers its end code), ended as first ended.
      expect(await store().sessions.findLiveByTokenHash(later.tokenHash, at(300))).toEqual({
        ...later,
        endedAt: at(200),
        endCode: 'SESSION_ENDED',
      });
      expect(await store().sessions.endLiveOfPlayer(seat.player.id, 'PLAYER_EXCLUDED', at(300))).toEqual([
        seat.session.id,
      ]);
      expect((await store().sessions.findById(expired.id))?.endedAt).toBeNull();
      expect(
        await store().sessions.liveOfPlayer(seat.player.id, at(300), { pageIndex: 1, pageSize: 10 }),
      ).toEqual({ items: [], totalCount: 0 });
    });

    it('refuses a second session with the same token hash', async () => {
      const seat = await seedSeat(store());
      await expect(
        store().sessions.insert(sessionRecord(seat.player, seat.game, { tokenHash: seat.session.tokenHash })),
      ).rejects.toThrow();
    });
  });

  describe('player figures (rounds.updatePlayer)', () => {
    const store = useStore(open);

    it('adds to the counters and sets the balance column in the profile’s default currency', async () => {
      const seat = await seedSeat(store(), { profile: { currency: 'BRL' }, player: { balanceMinor: 100 } });
      await store().rounds.updatePlayer(seat.player.id, 'BRL', 9_000, 1, 0);
      await store().rounds.updatePlayer(seat.player.id, 'BRL', MAX_MINOR, 2, 1);
      expect(await store().players.findById(seat.player.id)).toEqual({
        ...seat.player,
        balanceMinor: MAX_MINOR,
        totalBets: 3,
        betWins: 1,
      });
    });

    it('keeps the balance column when the currency is not the profile’s default', async () => {
      const seat = await seedSeat(store(), { profile: { currency: 'BRL' }, player: { balanceMinor: 100 } });
      await store().rounds.updatePlayer(seat.player.id, 'USD', 777, 1, 1);
      expect(await store().players.findById(seat.player.id)).toEqual({
        ...seat.player,
        balanceMinor: 100,
        totalBets: 1,
        betWins: 1,
      });
      expect(await store().players.balanceIn(seat.player.id, 'USD')).toBe(777);
    });

    it('touches no other player', async () => {
      const seat = await seedSeat(store());
      const other = await seedPlayer(store(), seat.profile);
      await seedRound(store(), seat);
      await store().rounds.updatePlayer(seat.player.id, 'BRL', 1, 1, 1);
      expect(await store().players.findById(other.id)).toEqual(other);
      expect(await store().players.balanceIn(other.id, 'BRL')).toBeUndefined();
    });
  });
}
