import { memo, type CSSProperties, type ReactNode } from 'react';
import { Handle, NodeResizer, Position, type NodeProps } from '@xyflow/react';
import { Spin, Tooltip, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HANDLE, type AgentNode } from '../lib/flow-types';
import { operatorIcon, operatorLabel } from './operator-meta';
import { useElapsed, useNodeRunState } from './run-status';

/** The canvas's node types (AGENTS.md §9.1): one look, with handles per operator. */

const card: CSSProperties = {
  minWidth: 180,
  maxWidth: 240,
  padding: '8px 12px',
  borderRadius: 8,
  background: 'var(--ant-color-bg-container, #fff)',
  border: '1px solid var(--ant-color-border, #d9d9d9)',
  boxShadow: '0 1px 3px rgba(0,0,0,0.08)',
  fontSize: 13,
};

const statusColor = { running: '#1677ff', finished: '#52c41a', error: '#ff4d4f' } as const;

function RunBadge({ id }: { id: string }) {
  const { t } = useTranslation();
  const state = useNodeRunState(id);
  const elapsed = useElapsed(state);
  if (!state) return null;
  const icon =
    state.status === 'running' ? (
      <Spin size="small" />
    ) : state.status === 'finished' ? (
      <CheckCircleFilled style={{ color: statusColor.finished }} />
    ) : (
      <CloseCircleFilled style={{ color: statusColor.error }} />
    );
  const text = t(`agent.run.status.${state.status}`);
  return (
    <Tooltip title={state.error ?? text}>
      <span
        data-testid={`node-status-${id}`}
        data-status={state.status}
        aria-label={text}
        style={{
          display: 'inline-flex',
          gap: 4,
          alignItems: 'center',
          fontSize: 11,
          color: statusColor[state.status],
        }}
      >
        {icon}
        {elapsed !== null && t('agent.run.seconds', { value: elapsed.toFixed(2) })}
      </span>
    </Tooltip>
  );
}

function Header({ node }: { node: NodeProps<AgentNode> }) {
  const { t } = useTranslation();
  const { label, name } = node.data;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
      <span aria-hidden>{operatorIcon(label)}</span>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {name}
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 11 }}>
          {operatorLabel(t, label)}
        </Typography.Text>
      </div>
      <RunBadge id={node.id} />
    </div>
  );
}

function Frame({ node, children }: { node: NodeProps<AgentNode>; children?: ReactNode }) {
  const state = useNodeRunState(node.id);
  const border = state ? statusColor[state.status] : node.selected ? '#1677ff' : undefined;
  return (
    <div
      data-testid={`node-${node.data.name}`}
      data-node-id={node.id}
      style={{ ...card, ...(border ? { borderColor: border, borderWidth: 2 } : {}) }}
    >
      <Header node={node} />
      {children}
    </div>
  );
}

const target = <Handle type="target" position={Position.Left} id={HANDLE.target} />;
const source = <Handle type="source" position={Position.Right} id={HANDLE.source} />;

/** An ordinary component: in on the left, out on the right. */
export const OperatorNode = memo(function OperatorNode(props: NodeProps<AgentNode>) {
  return (
    <Frame node={props}>
      {target}
      {source}
    </Frame>
  );
});

export const BeginNode = memo(function BeginNode(props: NodeProps<AgentNode>) {
  return <Frame node={props}>{source}</Frame>;
});

/** IterationItem/LoopItem: where the body of a container starts. */
export const StartNode = memo(function StartNode(props: NodeProps<AgentNode>) {
  return <Frame node={props}>{source}</Frame>;
});

export const ExitLoopNode = memo(function ExitLoopNode(props: NodeProps<AgentNode>) {
  return <Frame node={props}>{target}</Frame>;
});

/** An Agent: sub-agents hang from its bottom handle; `goto` exceptions leave from their own handle. */
export const AgentFlowNode = memo(function AgentFlowNode(props: NodeProps<AgentNode>) {
  const { t } = useTranslation();
  const gotoException = props.data.form.exception_method === 'goto';
  return (
    <Frame node={props}>
      {target}
      {source}
      <Handle type="target" position={Position.Top} id={HANDLE.agentTop} />
      <Handle type="source" position={Position.Bottom} id={HANDLE.agentBottom} />
      {gotoException && (
        <div style={{ position: 'relative', marginTop: 6, fontSize: 11, textAlign: 'right' }}>
          {t('agent.form.onError')}
          <Handle
            type="source"
            position={Position.Right}
            id={HANDLE.agentException}
            style={{ background: statusColor.error }}
          />
        </div>
      )}
    </Frame>
  );
});

function BranchRow({ id, text }: { id: string; text: string }) {
  return (
    <div
      style={{
        position: 'relative',
        padding: '3px 0',
        fontSize: 12,
        textAlign: 'right',
        borderTop: '1px dashed #eee',
      }}
    >
      {text}
      <Handle type="source" position={Position.Right} id={id} data-testid={`handle-${id}`} />
    </div>
  );
}

/** Switch: one out-handle per case (`Case n`) and the else branch (`end_cpn_ids`). */
export const SwitchNode = memo(function SwitchNode(props: NodeProps<AgentNode>) {
  const { t } = useTranslation();
  const conditions = Array.isArray(props.data.form.conditions) ? props.data.form.conditions : [];
  return (
    <Frame node={props}>
      {target}
      <div style={{ marginTop: 6 }}>
        {conditions.map((_c, i) => (
          <BranchRow key={i} id={`Case ${i + 1}`} text={t('agent.form.case', { n: i + 1 })} />
        ))}
        <BranchRow id={HANDLE.switchElse} text={t('agent.form.else')} />
      </div>
    </Frame>
  );
});

/** Categorize: one out-handle per category (its uuid). */
export const CategorizeNode = memo(function CategorizeNode(props: NodeProps<AgentNode>) {
  const items = (Array.isArray(props.data.form.items) ? props.data.form.items : []) as {
    name?: string;
    uuid?: string;
  }[];
  return (
    <Frame node={props}>
      {target}
      <div style={{ marginTop: 6 }}>
        {items.map((item, i) => (
          <BranchRow key={item.uuid ?? i} id={String(item.uuid ?? item.name ?? i)} text={item.name ?? ''} />
        ))}
      </div>
    </Frame>
  );
});

/** Iteration (`group`) and Loop (`loopNode`): resizable containers holding their body. */
export const ContainerNode = memo(function ContainerNode(props: NodeProps<AgentNode>) {
  const { t } = useTranslation();
  const state = useNodeRunState(props.id);
  return (
    <div
      data-testid={`node-${props.data.name}`}
      data-node-id={props.id}
      style={{
        width: '100%',
        height: '100%',
        minWidth: 320,
        minHeight: 180,
        borderRadius: 10,
        border: `2px dashed ${state ? statusColor[state.status] : props.selected ? '#1677ff' : '#bbb'}`,
        background: 'rgba(22,119,255,0.04)',
        padding: 8,
      }}
    >
      <NodeResizer isVisible={props.selected} minWidth={320} minHeight={180} />
      <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <span aria-hidden>{operatorIcon(props.data.label)}</span>
        <strong>{props.data.name}</strong>
        <Typography.Text type="secondary" style={{ fontSize: 11 }}>
          {operatorLabel(t, props.data.label)}
        </Typography.Text>
        <span style={{ marginLeft: 'auto' }}>
          <RunBadge id={props.id} />
        </span>
      </div>
      {target}
      {source}
    </div>
  );
});

export const NoteNode = memo(function NoteNode(props: NodeProps<AgentNode>) {
  return (
    <div
      data-testid={`node-${props.data.name}`}
      style={{
        width: '100%',
        height: '100%',
        minWidth: 160,
        minHeight: 80,
        padding: 8,
        background: '#fffbe6',
        border: '1px solid #ffe58f',
        borderRadius: 6,
        whiteSpace: 'pre-wrap',
        fontSize: 12,
      }}
    >
      <NodeResizer isVisible={props.selected} minWidth={160} minHeight={80} />
      <strong>{props.data.name}</strong>
      <div>{String(props.data.form.text ?? '')}</div>
    </div>
  );
});

export const NODE_TYPES = {
  beginNode: BeginNode,
  agentNode: AgentFlowNode,
  switchNode: SwitchNode,
  categorizeNode: CategorizeNode,
  group: ContainerNode,
  loopNode: ContainerNode,
  iterationStartNode: StartNode,
  loopStartNode: StartNode,
  exitLoopNode: ExitLoopNode,
  noteNode: NoteNode,
  retrievalNode: OperatorNode,
  messageNode: OperatorNode,
  rewriteNode: OperatorNode,
  ragNode: OperatorNode,
  dataOperationsNode: OperatorNode,
  listOperationsNode: OperatorNode,
  variableAssignerNode: OperatorNode,
  variableAggregatorNode: OperatorNode,
  toolNode: OperatorNode,
  placeholderNode: OperatorNode,
};
