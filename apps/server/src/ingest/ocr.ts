/**
 * OCR with tesseract.js, fully offline: language data comes from the @tesseract.js-data packages in
 * node_modules (LSTM "best_int" models), unpacked once into a temp cache directory; the WASM core is the
 * local tesseract.js-core. One engine (one tesseract worker thread) per parse; callers terminate it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { ParseError } from './errors.js';

export type OcrLanguage = 'eng' | 'chi_sim';

export interface OcrWord {
  text: string;
  confidence: number;
  /** Pixel box in the recognised image. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrLine {
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Baseline y at the line's left and right ends (pixels). */
  baseline: [number, number];
  words: OcrWord[];
}

export interface OcrResult {
  text: string;
  lines: OcrLine[];
}

export interface OcrOptions {
  /** "auto" (page layout), "block" (one uniform block, e.g. a table cell), "line", "sparse". */
  mode?: 'auto' | 'block' | 'line' | 'sparse';
  /** Resolution the image was rendered at (helps tesseract size its models). */
  dpi?: number;
  /** Only this part of the image. */
  rectangle?: { left: number; top: number; width: number; height: number };
}

export interface OcrEngine {
  readonly languages: OcrLanguage[];
  recognize(image: Buffer, opts?: OcrOptions): Promise<OcrResult>;
  terminate(): Promise<void>;
}

const HAN_RE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/g;
const LETTER_RE = /\p{L}/gu;

/**
 * OCR languages: English always; Simplified Chinese as well when the knowledge base's language is
 * Chinese, the file name contains Chinese characters, or at least 10% of the letters of the document's
 * text layer (when it has one) are Chinese characters.
 */
export function chooseOcrLanguages(language?: string, sampleText = '', fileName = ''): OcrLanguage[] {
  const zh = /^(chinese|zh|cn|chi)/i.test(language ?? '');
  const han = sampleText.match(HAN_RE)?.length ?? 0;
  const letters = sampleText.match(LETTER_RE)?.length ?? 0;
  const looksChinese = (letters >= 20 && han / letters >= 0.1) || HAN_RE.test(fileName);
  HAN_RE.lastIndex = 0;
  return zh || looksChinese ? ['eng', 'chi_sim'] : ['eng'];
}

const requireLocal = createRequire(import.meta.url);

function packageDir(lang: OcrLanguage): string {
  return path.join(
    path.dirname(requireLocal.resolve(`@tesseract.js-data/${lang}/package.json`)),
    '4.0.0_best_int',
  );
}

/** Unpacked traineddata files live here; written once, atomically. */
export function tessdataCacheDir(): string {
  return path.join(os.tmpdir(), 'lectern-tessdata-best-int-4.0.0');
}

function ensureUnpacked(lang: OcrLanguage): void {
  const dir = tessdataCacheDir();
  const target = path.join(dir, `${lang}.traineddata`);
  if (fs.existsSync(target)) return;
  fs.mkdirSync(dir, { recursive: true });
  const gz = fs.readFileSync(path.join(packageDir(lang), `${lang}.traineddata.gz`));
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, zlib.gunzipSync(gz));
  fs.renameSync(tmp, target);
}

const PSM_OF: Record<NonNullable<OcrOptions['mode']>, PSM> = {
  auto: PSM.AUTO,
  block: PSM.SINGLE_BLOCK,
  line: PSM.SINGLE_LINE,
  sparse: PSM.SPARSE_TEXT,
};

interface TessBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TessWord {
  text: string;
  confidence: number;
  bbox: TessBbox;
}
interface TessLine {
  text: string;
  confidence: number;
  bbox: TessBbox;
  baseline?: { x0: number; y0: number; x1: number; y1: number };
  words: TessWord[];
}
interface TessBlock {
  paragraphs: Array<{ lines: TessLine[] }>;
}

/** Starts a tesseract worker for `languages` (reads only local files). */
export async function createOcrEngine(languages: OcrLanguage[] = ['eng']): Promise<OcrEngine> {
  let worker: Worker;
  try {
    for (const lang of languages) ensureUnpacked(lang);
    worker = await createWorker(languages, OEM.LSTM_ONLY, {
      langPath: packageDir('eng'),
      cachePath: tessdataCacheDir(),
      cacheMethod: 'readOnly',
      gzip: true,
      errorHandler: () => undefined,
    });
  } catch (err) {
    throw new ParseError(`The OCR engine could not start: ${(err as Error)?.message ?? String(err)}`);
  }
  let mode: PSM | undefined;
  let dpi: number | undefined;
  return {
    languages,
    async recognize(image: Buffer, opts: OcrOptions = {}): Promise<OcrResult> {
      const wantMode = PSM_OF[opts.mode ?? 'auto'];
      const wantDpi = Math.round(opts.dpi ?? 150);
      if (wantMode !== mode || wantDpi !== dpi) {
        await worker.setParameters({
          tessedit_pageseg_mode: wantMode,
          user_defined_dpi: String(wantDpi),
          preserve_interword_spaces: '1',
        });
        mode = wantMode;
        dpi = wantDpi;
      }
      const { data } = await worker.recognize(image, opts.rectangle ? { rectangle: opts.rectangle } : {}, {
        text: true,
        blocks: true,
      });
      const lines: OcrLine[] = [];
      for (const block of (data.blocks ?? []) as unknown as TessBlock[]) {
        for (const para of block.paragraphs ?? []) {
          for (const line of para.lines ?? []) {
            const words = (line.words ?? [])
              .filter((w) => w.text.trim())
              .map((w) => ({ text: w.text.trim(), confidence: w.confidence, ...w.bbox }));
            if (!words.length) continue;
            const b = line.baseline;
            lines.push({
              text: line.text.trim(),
              confidence: line.confidence,
              ...line.bbox,
              baseline: b?.y0 !== undefined ? [b.y0, b.y1] : [line.bbox.y1, line.bbox.y1],
              words,
            });
          }
        }
      }
      return { text: data.text ?? '', lines };
    },
    async terminate(): Promise<void> {
      await worker.terminate().catch(() => undefined);
    },
  };
}
