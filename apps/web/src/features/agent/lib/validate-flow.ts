import { validateDsl, type Dsl } from '@lectern/agent-core/editor';
import { EDITOR_ONLY_LABELS, type AgentNode } from './flow-types';

/**
 * The editor's own checks (SPEC §5): names non-empty and unique, Message text, the Email fields.
 * Each issue names an i18n key (under `agent.validation`) so the form and the problem list can show
 * it in the reader's language; `field` is the form field it belongs to.
 */
export interface FlowIssue {
  nodeId: string | null;
  field?: string;
  key: string;
  values?: Record<string, string>;
  /** a message of the DSL check (agent-core), shown as it is */
  text?: string;
}

/** The Email fields SPEC §5 requires: SMTP server, sender, authorization code, recipient, content. */
export const EMAIL_REQUIRED = ['smtp_server', 'email', 'password', 'to_email', 'content'] as const;

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

export function nodeIssues(node: AgentNode, all: AgentNode[]): FlowIssue[] {
  const issues: FlowIssue[] = [];
  if (EDITOR_ONLY_LABELS.has(node.data.label)) return issues;
  const name = node.data.name ?? '';
  if (name.trim() === '') issues.push({ nodeId: node.id, field: 'name', key: 'nameRequired' });
  else if (all.some((n) => n.id !== node.id && n.data.name?.trim() === name.trim()))
    issues.push({ nodeId: node.id, field: 'name', key: 'nameDuplicate', values: { name: name.trim() } });
  const form = node.data.form ?? {};
  if (node.data.label === 'Message') {
    const content = Array.isArray(form.content) ? form.content : [form.content];
    if (content.length === 0 || content.some(blank))
      issues.push({ nodeId: node.id, field: 'content', key: 'messageTextRequired' });
  }
  if (node.data.label === 'Email') {
    for (const field of EMAIL_REQUIRED)
      if (blank(form[field])) issues.push({ nodeId: node.id, field, key: `emailRequired.${field}` });
  }
  return issues;
}

export function flowIssues(nodes: AgentNode[]): FlowIssue[] {
  return nodes.flatMap((n) => nodeIssues(n, nodes));
}

/**
 * Everything the server would refuse as well: the editor rules plus agent-core's DSL check (unknown
 * components, dangling edges, cycles without a loop, unknown references…), named by component.
 */
export function allIssues(dsl: Dsl, nodes: AgentNode[]): FlowIssue[] {
  const core = validateDsl(dsl, { names: false }).map((i) => ({
    nodeId: i.componentId,
    key: 'core',
    text: i.message,
    values: { name: i.componentName ?? '' },
  }));
  return [...flowIssues(nodes), ...core];
}

/** Keys an Email parameter file may set; the values are the fields' text (references allowed). */
export const EMAIL_PARAM_KEYS = ['to_email', 'cc_email', 'subject', 'content'] as const;

export type ParamFileResult =
  { ok: true; values: Record<string, string> } | { ok: false; key: 'jsonInvalid' | 'jsonContent' };

/**
 * A JSON parameter file for the Email component (SPEC §5): it must parse, be one object, name only
 * Email parameters and give each a string; anything else is a content error.
 */
export function parseEmailParamsFile(text: string): ParamFileResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, key: 'jsonInvalid' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { ok: false, key: 'jsonContent' };
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length === 0) return { ok: false, key: 'jsonContent' };
  const allowed = new Set<string>(EMAIL_PARAM_KEYS);
  for (const [key, value] of entries)
    if (!allowed.has(key) || typeof value !== 'string') return { ok: false, key: 'jsonContent' };
  return { ok: true, values: Object.fromEntries(entries) as Record<string, string> };
}
