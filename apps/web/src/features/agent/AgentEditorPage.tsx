import { useParams } from 'react-router';
import { ReactFlowProvider } from '@xyflow/react';
import { Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCanvas } from '../../api/canvas';
import { EditorWorkspace } from './canvas/EditorWorkspace';

/** `/agent/:canvasId`: the editor of one agent. */
export default function AgentEditorPage() {
  const { t } = useTranslation();
  const { canvasId } = useParams();
  const canvas = useCanvas(canvasId);
  if (canvas.isPending)
    return (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
        <Spin />
      </div>
    );
  if (!canvas.data)
    return <Result status="404" title={t('agent.editor.notFound')} subTitle={canvas.error?.message} />;
  return (
    <ReactFlowProvider>
      <EditorWorkspace key={canvas.data.id} canvas={canvas.data} />
    </ReactFlowProvider>
  );
}
