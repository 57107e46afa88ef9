/** Processes sharing a database must share its secret key: another key stops start-up with a message. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { closeRoot, createRoot } from '../root.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-keycheck-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const config = (key: string) =>
  loadConfig({
    LECTERN_DATA_DIR: dataDir,
    LECTERN_SECRET_KEY: key,
    LOG_LEVEL: 'silent',
  });

describe('secret key shared by the processes of one database', () => {
  it('starts again with the same key and refuses another', async () => {
    await closeRoot(await createRoot(config('first-key')));
    await closeRoot(await createRoot(config('first-key')));
    await expect(createRoot(config('another-key'))).rejects.toThrow(
      /different secret key.*same LECTERN_SECRET_KEY/,
    );
  });
});
