/** Component implementations by `component_name`; tool components come from the host's ToolPort. */
import { catalogueEntry } from '../catalogue/index.js';
import type { ResolvedPorts } from '../ports.js';
import { agent } from './agent.js';
import { begin } from './begin.js';
import { categorize } from './categorize.js';
import { concentrator } from './concentrator.js';
import { dataOperations } from './data-operations.js';
import { exitLoop } from './exit-loop.js';
import { hostTool } from './host-tool.js';
import { iteration } from './iteration.js';
import { iterationItem } from './iteration-item.js';
import { keywordExtract } from './keyword-extract.js';
import { listOperations } from './list-operations.js';
import { llm } from './llm.js';
import { loop } from './loop.js';
import { loopItem } from './loop-item.js';
import { message } from './message.js';
import { retrieval } from './retrieval.js';
import { rewriteQuestion } from './rewrite-question.js';
import { stringTransform } from './string-transform.js';
import { switchComponent } from './switch.js';
import { template } from './template.js';
import type { ComponentImpl } from './types.js';
import { userFillUp } from './user-fill-up.js';
import { variableAggregator } from './variable-aggregator.js';
import { variableAssigner } from './variable-assigner.js';

const CORE: Record<string, ComponentImpl> = {
  Begin: begin,
  UserFillUp: userFillUp,
  Message: message,
  LLM: llm,
  Agent: agent,
  Retrieval: retrieval,
  Categorize: categorize,
  Switch: switchComponent,
  Iteration: iteration,
  IterationItem: iterationItem,
  Loop: loop,
  LoopItem: loopItem,
  ExitLoop: exitLoop,
  VariableAssigner: variableAssigner,
  VariableAggregator: variableAggregator,
  StringTransform: stringTransform,
  DataOperations: dataOperations,
  ListOperations: listOperations,
  Template: template,
  RewriteQuestion: rewriteQuestion,
  KeywordExtract: keywordExtract,
  Concentrator: concentrator,
};

export function registryImpl(componentName: string, ports: ResolvedPorts): ComponentImpl {
  const core = CORE[componentName];
  if (core) return core;
  const entry = catalogueEntry(componentName);
  if (entry?.implementedBy === 'host') {
    const tool = ports.tools?.get(componentName);
    if (!tool) throw new Error(`No implementation is registered for the tool component "${componentName}"`);
    return hostTool(tool);
  }
  throw new Error(`Unknown component: ${componentName}`);
}

/** Names implemented in this package (the rest of the catalogue is host-supplied or editor-only). */
export const CORE_COMPONENTS = Object.keys(CORE);
