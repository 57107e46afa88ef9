import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

describe('SQLite statement cache', () => {
  const opened: SqliteDatabase.Database[] = [];
  const open = () => {
    const db = new SqliteDatabase(':memory:');
    opened.push(db);
    db.exec('create table t (id integer primary key, name text)');
    return db;
  };
  afterEach(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
  });

  it('hands the same statement back for the same SQL, least recently used out first', () => {
    const cache = withStatementCache(open(), 2);
    const a = cache.prepare('select 1');
    expect(cache.prepare('select 1')).toBe(a);
    const b = cache.prepare('select 2');
    cache.prepare('select 1');
    cache.prepare('select 3');
    expect(cache.cached).toBe(2);
    expect(cache.prepare('select 1')).toBe(a);
    expect(cache.prepare('select 2')).not.toBe(b);
  });

  it('never hands out a statement that is still being iterated', () => {
    const db = open();
    db.exec("insert into t (name) values ('a'), ('b')");
    const cache = withStatementCache(db);
    const first = cache.prepare('select name from t order by id');
    const rows = first.iterate();
    expect((rows.next().value as { name: string }).name).toBe('a');
    const second = cache.prepare('select name from t order by id');
    expect(second).not.toBe(first);
    expect(second.all()).toEqual([{ name: 'a' }, { name: 'b' }]);
    rows.return?.();
  });

  it('runs Kysely queries, transactions and streams with the same results as without it', async () => {
    const kysely = new Kysely<{ t: { id: Generated<number>; name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(open()) }),
    });
    for (let i = 0; i < 3; i++) {
      await kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('t')
          .values({ name: `n${i}` })
          .execute();
      });
    }
    await expect(
      kysely.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ name: 'rolled back' }).execute();
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    const names = await kysely.selectFrom('t').select('name').orderBy('id').execute();
    expect(names.map((r) => r.name)).toEqual(['n0', 'n1', 'n2']);
    const streamed: string[] = [];
    for await (const r of kysely.selectFrom('t').select('name').orderBy('id').stream()) streamed.push(r.name);
    expect(streamed).toEqual(['n0', 'n1', 'n2']);
    // The statement the stream used is free again afterwards.
    expect(await kysely.selectFrom('t').select('name').orderBy('id').execute()).toHaveLength(3);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(kysely)).rows[0].n).toBe(3);
    await kysely.destroy();
  });
});
