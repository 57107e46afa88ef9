import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startHubStandin, writeTinyEmbeddingModel } from '../../test/standins/index.js';
import { builtinMaybeAvailable, builtinModel, BuiltinEmbeddingModel } from './builtin.js';

/**
 * The Builtin embedding model runs the real transformers.js loading code on a tiny ONNX model that the
 * test writes itself (no weights can be downloaded here): from a local folder, downloaded from a hub
 * stand-in on first use, and failing clearly when neither is there.
 */
const NAME = 'sentence-transformers/all-MiniLM-L6-v2';
const HUB_ID = 'Xenova/all-MiniLM-L6-v2';
const tmp: string[] = [];

function configFor(modelDir: string, hub: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-builtin-'));
  tmp.push(dataDir, modelDir);
  return loadConfig({
    LECTERN_DATA_DIR: dataDir,
    LECTERN_SECRET_KEY: 'k',
    BUILTIN_MODEL_DIR: modelDir,
    BUILTIN_MODEL_HUB: hub,
  });
}

afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('Builtin embedding model (@huggingface/transformers)', () => {
  it('fails with a clear message when there is no local copy and the hub cannot be reached', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-models-'));
    // Port 9 on loopback: nothing listens there, the connection is refused at once (an offline hub).
    const config = configFor(dir, 'http://127.0.0.1:9/');
    const model = new BuiltinEmbeddingModel(config, builtinModel(NAME)!);
    expect(builtinMaybeAvailable(config, NAME)).toBe(true); // not tried yet
    await expect(model.embed(['hello'])).rejects.toThrow(
      `Builtin embedding model ${NAME} is not available: no local copy in ${dir} and the model hub cannot be reached`,
    );
    expect(builtinMaybeAvailable(config, NAME)).toBe(false);
  });

  it('downloads on first use into the model folder, then loads from it without the hub', async () => {
    const source = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-hubrepo-'));
    tmp.push(source);
    writeTinyEmbeddingModel(source);
    const hub = await startHubStandin({ [HUB_ID]: source });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-models-'));
    try {
      const first = new BuiltinEmbeddingModel(configFor(dir, `${hub.origin}/`), builtinModel(NAME)!);
      const r = await first.embed([
        'Paris is the capital of France',
        'the capital of France is Paris',
        'hello world',
      ]);
      expect(r.dimension).toBe(384);
      expect(r.vectors).toHaveLength(3);
      expect(cosine(r.vectors[0], r.vectors[0])).toBeCloseTo(1, 5); // normalised
      // Same words in another order: same mean-pooled vector; different words: different vector.
      expect(cosine(r.vectors[0], r.vectors[1])).toBeCloseTo(1, 5);
      expect(cosine(r.vectors[0], r.vectors[2])).toBeLessThan(0.9);
      expect(hub.requests.map((q) => q.path)).toContain(`/${HUB_ID}/resolve/main/onnx/model_quantized.onnx`);
      expect(fs.existsSync(path.join(dir, HUB_ID, 'onnx', 'model_quantized.onnx'))).toBe(true);
    } finally {
      await hub.close();
    }
    // Hub gone: the copy in the folder is enough.
    const config = configFor(dir, 'http://127.0.0.1:9/');
    expect(builtinMaybeAvailable(config, NAME)).toBe(true);
    const again = await new BuiltinEmbeddingModel(config, builtinModel(NAME)!).embed(['hello world']);
    expect(again.dimension).toBe(384);
  });

  it('loads a model folder put in place by hand, in batches', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-models-'));
    writeTinyEmbeddingModel(path.join(dir, HUB_ID));
    const model = new BuiltinEmbeddingModel(configFor(dir, 'http://127.0.0.1:9/'), builtinModel(NAME)!);
    const texts = Array.from({ length: 40 }, (_, i) => `document ${i} about search`);
    const r = await model.embed(texts);
    expect(r.vectors).toHaveLength(40);
    expect(r.usage.tokens).toBeGreaterThan(0);
    expect(model.id).toBe(`${NAME}@Builtin`);
  });
});
