import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasSystemFont, rasterPng } from '../../test/fixtures/pdf/raster.js';
import { chooseOcrLanguages, createOcrEngine, tessdataCacheDir } from './ocr.js';

describe('chooseOcrLanguages', () => {
  it('always reads English, and Chinese for Chinese knowledge bases, file names or text layers', () => {
    expect(chooseOcrLanguages('English')).toEqual(['eng']);
    expect(chooseOcrLanguages(undefined)).toEqual(['eng']);
    expect(chooseOcrLanguages('Chinese')).toEqual(['eng', 'chi_sim']);
    expect(chooseOcrLanguages('English', '', '年度报告.pdf')).toEqual(['eng', 'chi_sim']);
    expect(
      chooseOcrLanguages('English', '本文介绍知识库的解析流程以及表格识别方法 with some English words'),
    ).toEqual(['eng', 'chi_sim']);
    // A few Chinese characters in an English text (quotes, names) are not enough; Korean is not Chinese.
    expect(chooseOcrLanguages('English', `${'An English report about parsing. '.repeat(10)}知识`)).toEqual([
      'eng',
    ]);
    expect(
      chooseOcrLanguages('English', '코로나-19 관련 보험약관상 재해보험금 지급문제 및 개선과제'),
    ).toEqual(['eng']);
  });
});

// Test pictures are drawn with the machine's fonts; without any, there is nothing to recognise.
describe.skipIf(!hasSystemFont())('createOcrEngine', () => {
  it('loads English and Chinese models from node_modules (no network) and returns word boxes', async () => {
    const engine = await createOcrEngine(['eng', 'chi_sim']);
    try {
      expect(engine.languages).toEqual(['eng', 'chi_sim']);
      for (const lang of ['eng', 'chi_sim'])
        expect(fs.existsSync(path.join(tessdataCacheDir(), `${lang}.traineddata`))).toBe(true);
      const png = rasterPng({
        width: 300,
        height: 60,
        dpi: 200,
        texts: [{ x: 10, y: 40, text: 'Offline OCR 2024', size: 22 }],
      });
      const result = await engine.recognize(png, { mode: 'line', dpi: 200 });
      expect(result.lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['Offline OCR 2024']);
      const [first] = result.lines[0].words;
      // 10 pt from the left at 200 dpi is about 28 px.
      expect(Math.abs(first.x0 - 28)).toBeLessThan(8);
      expect(first.y1).toBeGreaterThan(first.y0);
    } finally {
      await engine.terminate();
    }
  }, 120_000);
});
