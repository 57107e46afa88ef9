import { useMemo } from 'react';
import { Button, Form, Input, Typography } from 'antd';
import { BugOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { catalogueEntry } from '@lectern/agent-core/editor';
import { operatorLabel } from '../canvas/operator-meta';
import { SidePanel } from '../panels/SidePanel';
import type { AgentEdge, AgentNode, AgentNodeData } from '../lib/flow-types';
import { nodeIssues } from '../lib/validate-flow';
import { variableOptions } from '../lib/variables';
import { BeginForm, IterationForm, LoopForm, SwitchForm, UserFillUpForm } from './flow-forms';
import { EmailForm, MessageForm, NoteForm } from './dialog-forms';
import type { FieldContext, Form as FormValues } from './fields';
import { GenericForm } from './GenericForm';
import { AgentForm, CategorizeForm, RetrievalForm } from './model-forms';

const FORMS: Record<string, (p: { ctx: FieldContext }) => React.ReactNode> = {
  Begin: BeginForm,
  UserFillUp: UserFillUpForm,
  Message: MessageForm,
  Email: EmailForm,
  Note: NoteForm,
  Agent: AgentForm,
  LLM: AgentForm,
  Retrieval: RetrievalForm,
  Categorize: CategorizeForm,
  Switch: SwitchForm,
  Iteration: IterationForm,
  Loop: LoopForm,
};

export interface NodeFormPanelProps {
  node: AgentNode | null;
  nodes: AgentNode[];
  edges: AgentEdge[];
  conversationVariables: Record<string, unknown>;
  onForm: (id: string, form: FormValues, field: string) => void;
  onData: (id: string, patch: Partial<AgentNodeData>, mergeKey: string) => void;
  onDebug: (node: AgentNode) => void;
  onClose: () => void;
}

/** The selected node's form: its name (non-empty, unique) and the component's params (SPEC §5). */
export function NodeFormPanel({
  node,
  nodes,
  edges,
  conversationVariables,
  onForm,
  onData,
  onDebug,
  onClose,
}: NodeFormPanelProps) {
  const { t } = useTranslation();
  const variables = useMemo(
    () => (node ? variableOptions(node.id, nodes, edges, conversationVariables) : []),
    [node, nodes, edges, conversationVariables],
  );
  if (!node) return null;
  const issues = nodeIssues(node, nodes);
  const issueOf = (field: string) => {
    const issue = issues.find((i) => i.field === field);
    return issue ? t(`agent.validation.${issue.key}`, issue.values) : undefined;
  };
  const form = node.data.form ?? {};
  const ctx: FieldContext = {
    form,
    set: (key, value) => onForm(node.id, { ...form, [key]: value }, key),
    patch: (values) => onForm(node.id, { ...form, ...values }, Object.keys(values).join(',')),
    variables,
    issueOf,
  };
  const Specific = FORMS[node.data.label] ?? GenericForm;
  const entry = catalogueEntry(node.data.label);
  const nameIssue = issueOf('name');
  return (
    <SidePanel
      onClose={onClose}
      title={operatorLabel(t, node.data.label)}
      testId="node-form"
      extra={
        entry?.debuggable && (
          <Button icon={<BugOutlined />} onClick={() => onDebug(node)} data-testid="debug-node">
            {t('agent.debug.open')}
          </Button>
        )
      }
    >
      <Form layout="vertical" component="div">
        <Form.Item
          label={t('agent.form.name')}
          required
          validateStatus={nameIssue ? 'error' : undefined}
          help={nameIssue}
          style={{ marginBottom: 12 }}
        >
          <Input
            value={node.data.name}
            disabled={node.id === 'begin'}
            aria-label={t('agent.form.name')}
            data-testid="field-name"
            onChange={(e) => onData(node.id, { name: e.target.value }, `${node.id}:name`)}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary" copyable={{ text: node.id }} style={{ fontSize: 12 }}>
          {t('agent.form.id', { id: node.id })}
        </Typography.Paragraph>
        <Specific ctx={ctx} />
      </Form>
    </SidePanel>
  );
}
