import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import {
  ApiOutlined,
  BranchesOutlined,
  CodeOutlined,
  CommentOutlined,
  DatabaseOutlined,
  ExportOutlined,
  FileTextOutlined,
  FormOutlined,
  FunctionOutlined,
  MailOutlined,
  MergeCellsOutlined,
  PartitionOutlined,
  PlayCircleOutlined,
  RetweetOutlined,
  RobotOutlined,
  SearchOutlined,
  SwapOutlined,
  SyncOutlined,
  TagsOutlined,
  ToolOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';

/** Operators with a translated label; tools keep their product names (Google, ArXiv, …). */
export const TRANSLATED_OPERATORS = [
  'Begin',
  'Agent',
  'LLM',
  'Retrieval',
  'Message',
  'UserFillUp',
  'Switch',
  'Iteration',
  'IterationItem',
  'Loop',
  'LoopItem',
  'ExitLoop',
  'Categorize',
  'CodeExec',
  'StringTransform',
  'DataOperations',
  'VariableAssigner',
  'ListOperations',
  'VariableAggregator',
  'Email',
  'ExeSQL',
  'Invoke',
  'PDFGenerator',
  'Note',
  'RewriteQuestion',
  'KeywordExtract',
] as const;

const translated = new Set<string>(TRANSLATED_OPERATORS);

export function operatorLabel(t: TFunction, operator: string): string {
  return translated.has(operator) ? t(`agent.operators.${operator}`) : operator;
}

const ICONS: Record<string, ReactNode> = {
  Begin: <PlayCircleOutlined />,
  Agent: <RobotOutlined />,
  LLM: <RobotOutlined />,
  Retrieval: <DatabaseOutlined />,
  Message: <CommentOutlined />,
  UserFillUp: <FormOutlined />,
  Switch: <BranchesOutlined />,
  Categorize: <TagsOutlined />,
  Iteration: <RetweetOutlined />,
  IterationItem: <PlayCircleOutlined />,
  Loop: <SyncOutlined />,
  LoopItem: <PlayCircleOutlined />,
  ExitLoop: <ExportOutlined />,
  CodeExec: <CodeOutlined />,
  StringTransform: <FunctionOutlined />,
  DataOperations: <PartitionOutlined />,
  VariableAssigner: <SwapOutlined />,
  ListOperations: <UnorderedListOutlined />,
  VariableAggregator: <MergeCellsOutlined />,
  Email: <MailOutlined />,
  Invoke: <ApiOutlined />,
  PDFGenerator: <FileTextOutlined />,
  Note: <FileTextOutlined />,
};

export function operatorIcon(operator: string): ReactNode {
  return (
    ICONS[operator] ??
    (/search|google|wiki|arxiv|pubmed|scholar|github|searx/i.test(operator) ? (
      <SearchOutlined />
    ) : (
      <ToolOutlined />
    ))
  );
}
