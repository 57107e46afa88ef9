/**
 * Every line the server writes into a progress log (`document.progress_msg`, `task.progress_msg` of
 * parsing and of the graph/RAPTOR/mind-map jobs, API.md §19.9), as English templates with `{{param}}`
 * placeholders. The server builds its lines with `progressMessage(key, params)`; the web client
 * recognizes them with `matchProgressMessage(text)` and shows the translation of `key` with the same
 * params — one list, so the two cannot drift apart. A log line is
 * `HH:MM:SS [Page(a~b): ][[ERROR]]<message>[ [Canceled]]`; the parts around the message are below.
 *
 * A template with an optional part is split into two entries (the server picks one), so every
 * template is a fixed sentence. Params named `error` may themselves hold a catalogued message (a
 * failure that wraps another); the client translates those too. Free-form error text put into an
 * `error` param is mapped to its known class first (progress-errors.ts), so it is translated as well.
 */
import { ERROR_CLASS_MESSAGES, errorClassOf, errorDetail } from './progress-errors.js';

export const PROGRESS_MESSAGES = {
  // Queue, roll-up, cancel, failures (queue/, ingest/tasks/).
  taskQueued: 'Task is queued...',
  tasksAhead: '{{count}} tasks are ahead in the queue...',
  reusedChunks: "Reused previous task's chunks.",
  noPagesInRanges: 'No pages in the selected page ranges.',
  taskCanceled: 'Task has been canceled.',
  task: 'Task',
  taskInterrupted:
    'The task was interrupted {{count}} times (its worker stopped while processing it) and was given up. Run the document again to retry.',
  modelCallFailed: 'The model call failed: {{error}}',
  taskFailed: 'The task failed: {{error}}',
  parsingFailed: 'Parsing failed: {{error}}',
  fileMissing: 'The uploaded file is missing from storage; upload it again.',
  taskDone: 'Task done ({{seconds}}s)',

  // Parsing pipeline (ingest/pipeline.ts).
  removedPartialChunks: 'Removed {{count}} chunks of an interrupted earlier attempt.',
  startParse: 'Start to parse.',
  finishParse: 'Finish parsing.',
  generateChunks: 'Generate {{count}} chunks',
  indexingDone: 'Indexing done ({{seconds}}s).',

  // Parsers (ingest/parsers/).
  pdfReading: 'Reading {{count}} of {{total}} pages.',
  pdfOcrPage: 'OCR page {{page}}/{{total}}.',
  pdfPageRead: 'Page {{page}} of {{total}} read.',
  pdfOcrUsedOne: 'OCR used on {{count}} page.',
  pdfOcrUsedMany: 'OCR used on {{count}} pages.',
  pdfTablesOne: '{{count}} table found.',
  pdfTablesMany: '{{count}} tables found.',
  pdfPicturesOne: 'Text read from {{count}} picture.',
  pdfPicturesMany: 'Text read from {{count}} pictures.',
  docxStructureRead: 'DOCX structure read.',
  docxParsed: 'DOCX parsed: {{count}} sections.',
  docxVectorPictures: '{{count}} picture(s) in a vector format (EMF/WMF/SVG) were not kept.',
  pptxSlideRead: 'Read slide {{slide}}.',
  pptxVectorPictures:
    '{{count}} picture(s) in a vector format (EMF/WMF/SVG) were not considered as slide images.',
  xlsxSheetRead: 'Read sheet {{done}} of {{total}}.',
  xlsxSheetsSkipped: '{{count}} chart or dialog sheet(s) without cells were skipped.',
  xlsSheetsSkipped: '{{count}} chart or macro sheet(s) without cells were skipped.',
  xlsHtmlExport: 'The .xls file is an HTML export; its tables were read.',
  xlsTextExport: 'The .xls file is a text export; it was read as delimited text.',
  imageDecoded: 'Image decoded.',
  ocrStarted: 'OCR started.',
  ocrFinished: 'OCR finished.',
  ocrWords: 'OCR found {{count}} words.',
  ocrNoText: 'OCR found no text in the image.',

  // Pipeline stages (ingest/stages/).
  keywordOnlyNoModel:
    'Keyword-only indexing: no embedding model is set, so chunks are indexed without vectors.',
  keywordOnlyUnavailable:
    'Keyword-only indexing: embedding model {{model}} is not available, so chunks are indexed without vectors.',
  keywordOnlyError: 'Keyword-only indexing: {{error}}.',
  embeddingDone: 'Embedding {{count}} chunks done ({{seconds}}s).',
  metadataStart: 'Start to generate metadata.',
  metadataFailed: 'Metadata extraction failed ({{error}}); the document keeps its metadata.',
  metadataNoJson: 'Metadata extraction skipped: the model answered no JSON object.',
  metadataGenerated: 'Metadata generated: {{keys}} ({{seconds}}s).',
  metadataNone: 'No metadata found in the text ({{seconds}}s).',
  fieldMap: 'Field map: {{count}} typed columns.',
  taggingNoTagKb: 'Tagging skipped: none of the tag sets in tag_kb_ids is a tag knowledge base.',
  taggingNoTags: 'Tagging skipped: the tag sets have no tags yet.',
  taggingDone: 'Tagging: {{count}} chunks tagged ({{seconds}}s)',
  enrichNoModel: 'No chat model for keywords/questions ({{error}}); skipped.',
  keywordsStart: 'Start to generate keywords for every chunk ...',
  keywordsDone: 'Keywords generation {{count}} chunks completed in {{seconds}}s',
  keywordsFailed: 'Keyword generation failed ({{error}}); continuing without keywords.',
  questionsStart: 'Start to generate questions for every chunk ...',
  questionsDone: 'Question generation {{count}} chunks completed in {{seconds}}s',
  questionsFailed: 'Question generation failed ({{error}}); continuing without questions.',
  pictureNoModel: 'No image-to-text model is set; the picture keeps its OCR text only.',
  pictureModelUnavailable:
    'Image-to-text model {{model}} is not available ({{error}}); the picture keeps its OCR text only.',
  pictureDescribe: 'Use CV LLM {{model}} to describe the picture.',
  pictureAnswer: 'CV LLM respond: {{answer}}',
  pictureFailed: 'Picture description failed ({{error}}); the picture keeps its OCR text only.',
  tocNoModel: 'No chat model for the table of contents ({{error}}); skipped.',
  tocStart: 'Start to extract the table of contents ...',
  tocFailed: 'Table of contents extraction failed ({{error}}); continuing without it.',
  tocNone: 'No table of contents extracted; continuing without it.',
  tocNoneWithNotes: 'No table of contents extracted ({{notes}}); continuing without it.',
  tocDone: 'Table of contents: {{count}} entries.',
  tocDoneWithNotes: 'Table of contents: {{count}} entries ({{notes}}).',

  // KB jobs in common (graph/jobs/kb-task.ts).
  kbGone: 'The knowledge base no longer exists.',
  noChatModel:
    'No chat model is set: choose a default chat model in the model settings (or the knowledge base’s own) and run the job again.',
  chatModelUnusable: 'The chat model {{model}} cannot be used: {{error}}',
  noDocuments: 'No documents in Knowledgebase {{kb}}',
  tokenUsage: 'Token usage: {{prompt}} prompt + {{completion}} completion = {{total}} tokens.',

  // Knowledge graph (graph/).
  graphStart: 'Start to build the knowledge graph.',
  graphToExtract: '{{count}} documents to extract, {{kept}} already in the graph.',
  graphToExtractRemoved:
    '{{count}} documents to extract, {{kept}} already in the graph, {{removed}} removed since the last run.',
  graphUpToDate: 'The knowledge graph is up to date.',
  graphExtractStart:
    'Start to extract entities and relations from {{chunks}} chunks of {{docs}} documents ({{method}}, {{concurrency}} model calls at once).',
  graphExtracted: 'Extracted {{done}}/{{total}} chunks: {{entities}} entities, {{relations}} relations.',
  graphExtractionDone:
    'Extraction done: {{entities}} entities, {{relations}} relations from {{chunks}} chunks ({{calls}} model calls, {{failed}} failed, {{empty}} empty answers, {{malformed}} malformed records skipped, {{filtered}} entities of other types dropped).',
  graphMerged:
    'Merged {{docs}} document graphs: the graph has {{entities}} entities and {{relations}} relations.',
  graphMergedDangling:
    'Merged {{docs}} document graphs: the graph has {{entities}} entities and {{relations}} relations ({{dangling}} relations to unextracted entities skipped).',
  graphSummarized: 'Summarized {{count}} long descriptions.',
  graphSummarizedFailed: 'Summarized {{count}} long descriptions ({{failed}} failed, kept as merged).',
  graphResolution: 'Entity resolution: {{pairs}} candidate pairs, {{merged}} entities merged.',
  graphResolutionFailed:
    'Entity resolution: {{pairs}} candidate pairs, {{merged}} entities merged, {{failed}} batches unanswered.',
  graphPageRank: 'PageRank computed.',
  graphCommunities: 'Found {{count}} communities.',
  graphReports: 'Wrote {{count}} community reports.',
  graphReportsFailed: 'Wrote {{count}} community reports ({{failed}} unreadable or failed).',
  graphIndexing: 'Indexing {{entities}} entities and {{relations}} relations…',
  graphIndexed: 'Indexed {{written}} graph records ({{embedded}} embedded, {{deleted}} removed).',
  graphIndexedKeywordOnly:
    'Indexed {{written}} graph records ({{embedded}} embedded, keyword-only: no usable embedding model, {{deleted}} removed).',
  graphFailed: 'Knowledge graph failed: {{error}}',

  // RAPTOR (raptor/).
  raptorStart: 'Start RAPTOR.',
  raptorNeedsEmbedding:
    'RAPTOR needs the knowledge base’s embedding model, which is not available: set a usable embedding model and run it again.',
  raptorSkippedTable: 'Raptor skipped: structured data (Table chunk method) ({{name}})',
  raptorSkippedTag: 'Raptor skipped: structured data (Tag chunk method) ({{name}})',
  raptorSkippedSpreadsheet: 'Raptor skipped: structured data (.{{suffix}} spreadsheet) ({{name}})',
  raptorSkippedHtmlTables: 'Raptor skipped: structured data (spreadsheet rendered as HTML tables) ({{name}})',
  raptorSkippedAll: 'Raptor skipped: every document holds structured data',
  raptorClustering: 'Clustering {{chunks}} chunks of {{docs}} documents.',
  raptorLayer: 'Cluster one layer: {{from}} -> {{to}}',
  raptorLayerStopped: 'Layer {{layer}}: no summary could be written; the tree stops at layer {{previous}}.',
  raptorNoSummary: 'RAPTOR failed: the chat model gave no summary for any of {{count}} clusters',
  raptorTree: 'Summary tree: {{layers}} ({{count}} summaries; UMAP {{umap}} ms, GMM {{gmm}} ms).',
  raptorTreeUnanswered:
    'Summary tree: {{layers}} ({{count}} summaries, {{failed}} clusters unanswered; UMAP {{umap}} ms, GMM {{gmm}} ms).',
  raptorIndexed: 'Indexed {{count}} summary chunks ({{removed}} old ones removed).',
  raptorFailed: 'RAPTOR failed: {{error}}',

  // Mind map (graph/jobs/mindmap-task.ts).
  mindmapStart: 'Start to build the mind map of {{count}} documents.',
  mindmapDoc: 'Mind map of {{name}}: {{calls}} model calls.',
  mindmapDocUnusable: 'Mind map of {{name}}: {{calls}} model calls, {{failed}} unusable.',
  mindmapDocFailed: 'Mind map of {{name}} failed: {{error}}',
  mindmapNothing: 'Mind map failed: no document could be summarized ({{failed}} failed).',
  mindmapBuilt: 'Mind map built from {{count}} documents.',
  mindmapBuiltFailed: 'Mind map built from {{count}} documents ({{failed}} failed).',
  mindmapFailed: 'Mind map failed: {{error}}',

  // Known classes of free-form error text (progress-errors.ts).
  ...ERROR_CLASS_MESSAGES,
} as const;

export type ProgressMessageKey = keyof typeof PROGRESS_MESSAGES;

/** The `{{param}}` names of a template, as a union. */
type ParamsOf<T extends string> = T extends `${string}{{${infer P}}}${infer Rest}`
  ? P | ParamsOf<Rest>
  : never;
export type ProgressMessageParams<K extends ProgressMessageKey> = Record<
  ParamsOf<(typeof PROGRESS_MESSAGES)[K]>,
  string | number
>;
type ParamArgs<K extends ProgressMessageKey> = [ParamsOf<(typeof PROGRESS_MESSAGES)[K]>] extends [never]
  ? []
  : [params: ProgressMessageParams<K>];

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** The names of a template's placeholders, in order. */
export function progressMessageParams(key: ProgressMessageKey): string[] {
  return [...PROGRESS_MESSAGES[key].matchAll(PLACEHOLDER)].map((m) => m[1]);
}

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => String(params[name]));
}

/** The English log message `key` with its params filled in (what the server writes). */
export function progressMessage<K extends ProgressMessageKey>(key: K, ...args: ParamArgs<K>): string {
  const params = (args[0] ?? {}) as Record<string, string | number>;
  if (typeof params.error === 'string')
    return fill(PROGRESS_MESSAGES[key], { ...params, error: describeErrorText(params.error) });
  return fill(PROGRESS_MESSAGES[key], params);
}

/**
 * Error text for the log: a catalogued message stays as it is; text of a known class (timeout,
 * unreachable, provider 401/403/429/5xx, password-protected, unsupported or damaged file, out of
 * memory) becomes that class's sentence with the raw text as a short suffix; anything else as written.
 */
export function describeErrorText(raw: string): string {
  const text = raw.trim();
  if (matchProgressMessage(text)) return text;
  const key = errorClassOf(text);
  return key ? fill(PROGRESS_MESSAGES[key], { detail: errorDetail(text) }) : text;
}

/** The parts of a log line around its message. */
export const PROGRESS_PAGE_PREFIX = 'Page({{from}}~{{to}}): ';
export const PROGRESS_ERROR_MARK = '[ERROR]';
export const PROGRESS_CANCELED_MARK = ' [Canceled]';

/** `Page(a~b): ` for a task over pages a..b (1-based, inclusive). */
export function progressPagePrefix(from: number, to: number): string {
  return fill(PROGRESS_PAGE_PREFIX, { from, to });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface CompiledMessage {
  key: ProgressMessageKey;
  names: string[];
  pattern: RegExp;
  literal: number;
}

let compiled: CompiledMessage[] | null = null;

/** Patterns tried most literal text first, so a specific sentence wins over a general one. */
function patterns(): CompiledMessage[] {
  compiled ??= (Object.keys(PROGRESS_MESSAGES) as ProgressMessageKey[])
    .map((key) => {
      const template: string = PROGRESS_MESSAGES[key];
      const parts = template.split(PLACEHOLDER);
      // split() with a capture group alternates literal text and placeholder names.
      const source = parts.map((p, i) => (i % 2 === 0 ? escapeRegExp(p) : '([\\s\\S]*?)')).join('');
      return {
        key,
        names: parts.filter((_, i) => i % 2 === 1),
        pattern: new RegExp(`^${source}$`),
        literal: parts.filter((_, i) => i % 2 === 0).join('').length,
      };
    })
    .sort((a, b) => b.literal - a.literal);
  return compiled;
}

export interface MatchedProgressMessage {
  key: ProgressMessageKey;
  params: Record<string, string>;
}

/** Which catalogued message `text` is, with its params; null for a line the catalogue does not know. */
export function matchProgressMessage(text: string): MatchedProgressMessage | null {
  for (const c of patterns()) {
    const m = c.pattern.exec(text);
    if (!m) continue;
    const params: Record<string, string> = {};
    c.names.forEach((name, i) => {
      params[name] = m[i + 1];
    });
    return { key: c.key, params };
  }
  return null;
}

export interface ProgressLineParts {
  /** `HH:MM:SS`, when the line starts with one. */
  time: string | null;
  page: { from: string; to: string } | null;
  error: boolean;
  canceled: boolean;
  /** The message itself, without the parts above. */
  message: string;
}

const LINE = /^(?:(\d{1,2}:\d{2}:\d{2})\s+)?(?:Page\((\d+)~(\d+)\): )?([\s\S]*)$/;

/** Splits a log line into its time, page range, error/cancel marks and message. */
export function splitProgressLine(line: string): ProgressLineParts {
  const m = LINE.exec(line.trim());
  let message = m?.[4] ?? line;
  const error = message.startsWith(PROGRESS_ERROR_MARK);
  if (error) message = message.slice(PROGRESS_ERROR_MARK.length).trim();
  const canceled = message.endsWith(PROGRESS_CANCELED_MARK.trim());
  if (canceled) message = message.slice(0, -PROGRESS_CANCELED_MARK.trim().length).trim();
  return {
    time: m?.[1] ?? null,
    page: m?.[2] && m[3] ? { from: m[2], to: m[3] } : null,
    error,
    canceled,
    message,
  };
}
