/**
 * File manager speed (issue 13):
 *  1. listing one page of a folder holding 10,000 entries (page size 15, by create_time, by name,
 *     and with a keyword), over HTTP on the real server — median and p95;
 *  2. recursive delete of a 1,000-file tree (10 folders × 100 files, uploaded through
 *     `file/upload` with relative paths, so every file has its blob) — wall time per run.
 * Prints figures, the machine and its load; never asserts a time.
 *   Run: npm run bench -- files [entries=10000] [treeFiles=1000] [runs=3]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  call,
  newUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../apps/server/test/harness.js';
import { upload } from '../apps/server/src/modules/kb/test-support.js';
import { newId } from '../apps/server/src/util/ids.js';
import { creationStamps } from '../apps/server/src/util/time.js';
import { callerOf, listFolder } from '../apps/server/src/modules/file/service.js';
import { machine, summarize } from './lib/stats.js';

const ENTRIES = Number(process.argv[2] ?? 10_000);
const TREE_FILES = Number(process.argv[3] ?? 1_000);
const RUNS = Number(process.argv[4] ?? 3);
const LIST_CALLS = 200;

async function createFolder(server: TestServer, user: TestUser, name: string, parentId?: string) {
  const res = await call<{ id: string }>(server, '/v1/file/create', {
    token: user.token,
    body: { name, type: 'folder', ...(parentId ? { parent_id: parentId } : {}) },
  });
  if (res.body.code !== 0) throw new Error(res.body.message);
  return res.body.data!.id;
}

/** 10,000 file rows written straight into the real database (listing reads rows, not blobs). */
async function fillFolder(server: TestServer, user: TestUser, folderId: string) {
  const db = server.ctx.db.kysely;
  const base = Date.now() - ENTRIES;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < ENTRIES; i += 500) {
      const rows = Array.from({ length: Math.min(500, ENTRIES - i) }, (_, j) => {
        const id = newId();
        return {
          id,
          parent_id: folderId,
          tenant_id: user.id,
          created_by: user.id,
          name: `entry-${String(i + j).padStart(6, '0')}.txt`,
          location: `${id}.txt`,
          blob_key: `${folderId}/${id}.txt`,
          size: 100 + ((i + j) % 900),
          type: 'doc',
          source_type: '',
          ...creationStamps(base + i + j),
        };
      });
      await trx.insertInto('file').values(rows).execute();
    }
  });
}

async function timeLists(server: TestServer, user: TestUser, folderId: string, extra: string) {
  const times: number[] = [];
  const pages = Math.ceil(ENTRIES / 15);
  for (let i = 0; i < LIST_CALLS; i += 1) {
    const page = 1 + ((i * 37) % pages);
    const t0 = performance.now();
    const res = await call(server, `/v1/file/list?parent_id=${folderId}&page=${page}&page_size=15${extra}`, {
      token: user.token,
    });
    times.push(performance.now() - t0);
    if (res.body.code !== 0) throw new Error(res.body.message);
  }
  return summarize(times);
}

async function buildTree(server: TestServer, user: TestUser, name: string): Promise<string> {
  const folderId = await createFolder(server, user, name);
  const perBatch = server.ctx.config.maxFilesPerBatch;
  const names = Array.from({ length: TREE_FILES }, (_, i) => `d${i % 10}/f${i}.txt`);
  for (let i = 0; i < names.length; i += perBatch) {
    const batch = names.slice(i, i + perBatch).map((n) => ({ name: n, data: `content of ${n}` }));
    const res = await upload(server, user.token, { parent_id: folderId }, batch, '/v1/file/upload');
    if (res.body.code !== 0) throw new Error(res.body.message);
  }
  return folderId;
}

const fmt = (s: { median: number; p95: number }) =>
  `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`;

async function main() {
  const server = await startTestServer();
  try {
    const user = await newUser(server, 'bench');
    const big = await createFolder(server, user, 'big');
    await fillFolder(server, user, big);
    await timeLists(server, user, big, ''); // warm-up
    console.log(`machine: ${machine()}`);
    console.log(
      `load average before: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const floor: number[] = [];
    for (let i = 0; i < LIST_CALLS; i += 1) {
      const t0 = performance.now();
      await call(server, '/v1/file/root_folder', { token: user.token });
      floor.push(performance.now() - t0);
    }
    console.log(`floor (file/root_folder: auth + one query), ${LIST_CALLS} calls: ${fmt(summarize(floor))}`);
    console.log(`list of a ${ENTRIES}-entry folder, ${LIST_CALLS} calls each:`);
    console.log(`  by create_time desc: ${fmt(await timeLists(server, user, big, ''))}`);
    console.log(
      `  by name asc:         ${fmt(await timeLists(server, user, big, '&orderby=name&desc=false'))}`,
    );
    console.log(`  keywords=entry-00:   ${fmt(await timeLists(server, user, big, '&keywords=entry-00'))}`);
    // The same listing without HTTP and auth: what the folder query itself costs.
    const dbUser = await server.ctx.db.kysely
      .selectFrom('user')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const inProcess: number[] = [];
    for (let i = 0; i < LIST_CALLS; i += 1) {
      const t0 = performance.now();
      await listFolder(server.ctx, await callerOf(server.ctx, dbUser), big, {
        page: 1 + ((i * 37) % Math.ceil(ENTRIES / 15)),
        pageSize: 15,
        orderby: 'create_time',
        desc: true,
        keywords: '',
      });
      inProcess.push(performance.now() - t0);
    }
    console.log(`  service only (no HTTP/auth), by create_time: ${fmt(summarize(inProcess))}`);
    const deletes: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const tree = await buildTree(server, user, `tree-${run}`);
      const t0 = performance.now();
      const res = await call(server, '/v1/file/rm', { token: user.token, body: { file_ids: [tree] } });
      deletes.push(performance.now() - t0);
      if (res.body.code !== 0) throw new Error(res.body.message);
    }
    const d = summarize(deletes);
    console.log(
      `recursive delete of a ${TREE_FILES}-file tree (10 folders), ${RUNS} runs: ${fmt(d)}, max ${d.max.toFixed(0)} ms`,
    );
    console.log(
      `load average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server.close();
  }
}

await main();
