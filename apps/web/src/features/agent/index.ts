export { default as AgentListPage } from './AgentListPage';
export { default as AgentEditorPage } from './AgentEditorPage';
