import crypto from 'node:crypto';
import type { AppContext } from '../context.js';
import { creationStamps } from '../util/time.js';
import { catalogueFactories } from './catalogue.js';

const KV_KEY = 'llm_catalogue_digest';

/**
 * Mirrors catalogue.json into `llm_factories` and `llm` (API.md §18). Idempotent: rows are upserted,
 * rows no longer in the file are removed, and an unchanged file (same digest) is skipped.
 */
export async function seedCatalogue(ctx: AppContext): Promise<void> {
  const factories = catalogueFactories();
  const digest = crypto.createHash('sha256').update(JSON.stringify(factories)).digest('hex');
  const db = ctx.db.kysely;
  const seen = await db.selectFrom('kv').select('value').where('key', '=', KV_KEY).executeTakeFirst();
  if (seen?.value === digest) return;

  const stamps = creationStamps();
  const factoryRows = factories.map((f) => ({
    name: f.name,
    logo: f.logo,
    tags: f.tags,
    rank: f.rank,
    status: f.status,
    ...stamps,
  }));
  const modelRows = factories.flatMap((f) =>
    f.llm.map((m) => ({
      llm_name: m.llm_name,
      model_type: m.model_type,
      fid: f.name,
      max_tokens: m.max_tokens,
      tags: m.tags,
      is_tools: m.is_tools ? 1 : 0,
      status: '1',
      ...stamps,
    })),
  );
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('llm_factories')
      .values(factoryRows)
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({
          logo: eb.ref('excluded.logo'),
          tags: eb.ref('excluded.tags'),
          rank: eb.ref('excluded.rank'),
          status: eb.ref('excluded.status'),
          update_time: eb.ref('excluded.update_time'),
          update_date: eb.ref('excluded.update_date'),
        })),
      )
      .execute();
    for (let i = 0; i < modelRows.length; i += 100) {
      await trx
        .insertInto('llm')
        .values(modelRows.slice(i, i + 100))
        .onConflict((oc) =>
          oc.columns(['fid', 'llm_name']).doUpdateSet((eb) => ({
            model_type: eb.ref('excluded.model_type'),
            max_tokens: eb.ref('excluded.max_tokens'),
            tags: eb.ref('excluded.tags'),
            is_tools: eb.ref('excluded.is_tools'),
            status: eb.ref('excluded.status'),
            update_time: eb.ref('excluded.update_time'),
            update_date: eb.ref('excluded.update_date'),
          })),
        )
        .execute();
    }
    // Whatever the file no longer lists goes.
    const names = factories.map((f) => f.name);
    await trx.deleteFrom('llm_factories').where('name', 'not in', names).execute();
    const current = await trx.selectFrom('llm').select(['fid', 'llm_name']).execute();
    const keep = new Set(modelRows.map((m) => `${m.fid}\u0000${m.llm_name}`));
    for (const row of current) {
      if (!keep.has(`${row.fid}\u0000${row.llm_name}`)) {
        await trx.deleteFrom('llm').where('fid', '=', row.fid).where('llm_name', '=', row.llm_name).execute();
      }
    }
    await trx
      .insertInto('kv')
      .values({ key: KV_KEY, value: digest, update_time: stamps.update_time })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: digest, update_time: stamps.update_time }))
      .execute();
  });
}
