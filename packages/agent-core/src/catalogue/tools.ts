/**
 * Tool components (AGENTS.md §10) are implemented by the host through the ToolPort (issue 15); the
 * catalogue knows their names, palette group, node type and outputs so DSLs naming them validate
 * and the editor can place them. Params here are only the common ones: a host may pass a richer
 * schema when it registers the implementation.
 */
import { defineEntry } from './define.js';
import type { CatalogueEntry, OutputDecl, PaletteGroup } from './types.js';

interface ToolInfo {
  name: string;
  group?: PaletteGroup | null;
  nodeType?: string;
  outputs?: Record<string, OutputDecl>;
  /** outputs only known from the DSL's params.outputs / at run time */
  open?: boolean;
}

const searchOutputs = { formalized_content: { type: 'string' }, json: { type: 'Array<Object>' } };
const textOutput = { formalized_content: { type: 'string' } };

const TOOLS: ToolInfo[] = [
  { name: 'CodeExec', group: 'dataManipulation', open: true },
  { name: 'Invoke', group: 'tools', outputs: { result: { type: 'string' } } },
  { name: 'Email', group: 'tools', outputs: { success: { type: 'boolean' } } },
  { name: 'ExeSQL', group: 'tools', outputs: searchOutputs },
  { name: 'Crawler', group: null, outputs: { content: { type: 'string' } } },
  { name: 'TavilySearch', group: 'tools', outputs: searchOutputs },
  {
    name: 'TavilyExtract',
    group: 'tools',
    outputs: { json: { type: 'Array<Object>' }, formalized_content: { type: 'string' } },
  },
  { name: 'Google', group: 'tools', outputs: searchOutputs },
  { name: 'Bing', group: null, outputs: searchOutputs },
  { name: 'DuckDuckGo', group: 'tools', outputs: searchOutputs },
  { name: 'Wikipedia', group: 'tools', outputs: textOutput },
  { name: 'SearXNG', group: 'tools', outputs: searchOutputs },
  { name: 'GitHub', group: 'tools', outputs: searchOutputs },
  { name: 'ArXiv', group: 'tools', outputs: textOutput },
  { name: 'PubMed', group: 'tools', outputs: textOutput },
  { name: 'GoogleScholar', group: 'tools', outputs: searchOutputs },
  { name: 'YahooFinance', group: 'tools', outputs: { report: { type: 'string' } } },
  { name: 'WenCai', group: 'tools', outputs: { report: { type: 'string' } } },
  {
    name: 'PDFGenerator',
    group: 'tools',
    outputs: {
      file_path: { type: 'string' },
      pdf_base64: { type: 'string' },
      download: { type: 'string' },
      success: { type: 'boolean' },
    },
  },
  {
    name: 'ExcelProcessor',
    group: null,
    outputs: { data: { type: 'object' }, summary: { type: 'str' }, markdown: { type: 'str' } },
  },
  { name: 'AkShare', open: true },
  { name: 'DeepL', open: true },
  { name: 'Jin10', open: true },
  { name: 'QWeather', open: true },
  { name: 'TuShare', open: true },
  { name: 'Baidu', open: true },
  { name: 'BaiduFanyi', open: true },
];

export const TOOL_ENTRIES: CatalogueEntry[] = TOOLS.map((t) =>
  defineEntry({
    name: t.name,
    nodeType: t.nodeType ?? 'ragNode',
    group: t.group ?? null,
    outputs: t.outputs ?? {},
    dynamicOutputs: t.open ? (p) => (p.outputs && Object.keys(p.outputs).length ? [] : 'open') : undefined,
    implementedBy: 'host',
    primaryOutput: Object.keys(t.outputs ?? { result: {} })[0] ?? 'result',
    inputElementParams: t.name === 'PDFGenerator' ? ['content'] : [],
  }),
);
