import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a tiny but real transformers.js feature-extraction model folder (config.json, tokenizer.json,
 * tokenizer_config.json, onnx/model_quantized.onnx): a BERT-style WordPiece tokenizer and an ONNX graph
 * last_hidden_state = Gather(E, input_ids) * attention_mask. Hand-encoded protobuf, no download needed,
 * so the Builtin model's real loading code (local folder and hub download) can run in tests.
 */

// ---- minimal protobuf writer -------------------------------------------------------------------
function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, v: number) => [...key(field, 0), ...varint(v)];
const bytes = (field: number, b: Uint8Array | number[]) => [...key(field, 2), ...varint(b.length), ...b];
const str = (field: number, s: string) => bytes(field, [...Buffer.from(s, 'utf8')]);
const msg = (field: number, parts: number[][]) => bytes(field, parts.flat());

const FLOAT = 1;
const INT64 = 7;

function valueInfo(field: number, name: string, elemType: number, dims: Array<string | number>) {
  const shape = dims.map((d) => msg(1, [typeof d === 'string' ? str(2, d) : int(1, d)]));
  return msg(field, [str(1, name), msg(2, [msg(1, [int(1, elemType), msg(2, shape)])])]);
}

function node(inputs: string[], outputs: string[], name: string, op: string, attrs: number[][] = []) {
  return msg(1, [
    ...inputs.map((i) => str(1, i)),
    ...outputs.map((o) => str(2, o)),
    str(3, name),
    str(4, op),
    ...attrs,
  ]);
}

function tensor(field: number, name: string, dims: number[], type: number, raw: Buffer) {
  return msg(field, [...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw)]);
}

function onnxModel(vocabSize: number, dim: number): Buffer {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const emb = Buffer.alloc(vocabSize * dim * 4);
  for (let i = 0; i < vocabSize * dim; i++) emb.writeFloatLE(rand(), i * 4);
  const axes = Buffer.alloc(8);
  axes.writeBigInt64LE(2n);
  const graph = [
    node(['embeddings', 'input_ids'], ['gathered'], 'gather', 'Gather', [
      msg(5, [str(1, 'axis'), int(20, 2), int(3, 0)]),
    ]),
    node(['attention_mask'], ['mask_f'], 'cast', 'Cast', [msg(5, [str(1, 'to'), int(20, 2), int(3, FLOAT)])]),
    node(['mask_f', 'axes'], ['mask_3d'], 'unsqueeze', 'Unsqueeze'),
    node(['gathered', 'mask_3d'], ['last_hidden_state'], 'mul', 'Mul'),
    str(2, 'tiny-embedder'),
    tensor(5, 'embeddings', [vocabSize, dim], FLOAT, emb),
    tensor(5, 'axes', [1], INT64, axes),
    valueInfo(11, 'input_ids', INT64, ['batch', 'seq']),
    valueInfo(11, 'attention_mask', INT64, ['batch', 'seq']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'seq', dim]),
  ];
  return Buffer.from([
    ...int(1, 8),
    ...str(2, 'lectern-test'),
    ...msg(7, graph),
    ...msg(8, [str(1, ''), int(2, 14)]),
  ]);
}

const WORDS =
  'the a an and or of to in on for with is are was be it this that as by at from paris france capital city model embedding search document chunk question answer knowledge base retrieval test hello world'.split(
    ' ',
  );

export function writeTinyEmbeddingModel(dir: string, dim = 384): void {
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
  const tokens = [...specials, ...WORDS, ...letters, ...letters.map((l) => `##${l}`)];
  const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: dim,
      vocab_size: tokens.length,
      max_position_embeddings: 512,
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  );
  const special = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  fs.writeFileSync(
    path.join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: specials.map((content, id) => ({
        id,
        content,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      })),
      normalizer: {
        type: 'BertNormalizer',
        clean_text: true,
        handle_chinese_chars: true,
        strip_accents: null,
        lowercase: true,
      },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
        pair: [
          special('[CLS]'),
          { Sequence: { id: 'A', type_id: 0 } },
          special('[SEP]'),
          { Sequence: { id: 'B', type_id: 1 } },
          special('[SEP]'),
        ],
        special_tokens: {
          '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
          '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
        },
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: {
        type: 'WordPiece',
        unk_token: '[UNK]',
        continuing_subword_prefix: '##',
        max_input_chars_per_word: 100,
        vocab,
      },
    }),
  );
  fs.writeFileSync(path.join(dir, 'onnx', 'model_quantized.onnx'), onnxModel(tokens.length, dim));
}
