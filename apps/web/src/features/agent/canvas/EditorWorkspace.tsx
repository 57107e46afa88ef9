import { useCallback, useMemo, useReducer, useRef, useState } from 'react';
import { Background, Controls, MiniMap, ReactFlow, useReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { loadDsl, type Dsl } from '@lectern/agent-core/editor';
import { fetchCanvas, saveCanvas, type CanvasDetail, type CanvasDsl } from '../../../api/canvas';
import { DebugModal } from '../panels/DebugModal';
import { RunPanel } from '../panels/RunPanel';
import { SettingsModal, type CanvasSettings } from '../panels/SettingsModal';
import { VersionDrawer } from '../panels/VersionDrawer';
import { NodeFormPanel } from '../forms/NodeFormPanel';
import { inputsObject } from '../lib/flow-to-dsl';
import type { AgentNode } from '../lib/flow-types';
import { downloadJson, exportFileName, parseImport } from '../lib/import-export';
import { initialRunState, runReducer } from '../lib/run-state';
import { allIssues } from '../lib/validate-flow';
import { EditorToolbar, type ProblemItem } from './EditorToolbar';
import { NODE_TYPES } from './nodes';
import { Palette } from './Palette';
import { RunStatusContext } from './run-status';
import { useAddNode } from './use-add-node';
import { useFlowEditor } from './use-flow-editor';
import { useShortcuts } from './use-shortcuts';

/** The agent editor: palette, canvas, the selected node's form, run panel, versions, settings. */
export function EditorWorkspace({ canvas }: { canvas: CanvasDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const flow = useReactFlow();
  const wrapper = useRef<HTMLDivElement>(null);
  const [settings, setSettings] = useState<CanvasSettings>({
    title: canvas.title,
    description: canvas.description,
    avatar: canvas.avatar,
    permission: canvas.permission,
  });
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const initialDsl = useMemo(() => loadDsl(canvas.dsl), [canvas.dsl]);

  const save = useCallback(
    async (dsl: Dsl) => {
      const s = settingsRef.current;
      const result = await saveCanvas({
        id: canvas.id,
        title: s.title,
        // the DSL is plain JSON (loaded from JSON, edited as JSON)
        dsl: dsl as CanvasDsl,
        canvas_category: 'agent_canvas',
        description: s.description,
        avatar: s.avatar,
        permission: s.permission,
      });
      return result.code === 0 ? ({ ok: true } as const) : ({ ok: false, message: result.message } as const);
    },
    [canvas.id],
  );
  const editor = useFlowEditor({ initialDsl, save });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [panel, setPanel] = useState<'run' | 'versions' | 'settings' | null>(null);
  const [debugNode, setDebugNode] = useState<AgentNode | null>(null);
  const [run, dispatch] = useReducer(runReducer, initialRunState);

  const { nodes, edges } = editor.graph;
  const selected = nodes.find((n) => n.id === selectedId) ?? null;
  const select = useCallback((id: string) => setSelectedId(id), []);
  const { onDragOver, onDrop, addByClick } = useAddNode(editor, wrapper, select);

  const currentDsl = editor.currentDsl;
  const problems: ProblemItem[] = useMemo(() => {
    const dsl = currentDsl();
    return allIssues(dsl, nodes).map((issue) => {
      const name = nodes.find((n) => n.id === issue.nodeId)?.data.name ?? issue.values?.name ?? '';
      const text = issue.text ?? t(`agent.validation.${issue.key}`, issue.values);
      return { nodeId: issue.nodeId, text: name ? `${name}: ${text}` : text };
    });
  }, [nodes, edges, currentDsl, t]); // eslint-disable-line react-hooks/exhaustive-deps -- edges change the DSL too

  const flush = editor.flush;
  const beforeRun = useCallback(() => flush(), [flush]);
  const afterRun = useCallback(async () => {
    const result = await fetchCanvas(canvas.id);
    if (result.code === 0 && result.data) editor.mergeRunState(loadDsl(result.data.dsl));
  }, [canvas.id, editor]);

  const fit = useCallback(() => void flow.fitView({ padding: 0.2, duration: 200 }), [flow]);
  const shortcuts = useMemo(
    () => ({
      undo: editor.undo,
      redo: editor.redo,
      copy: () => {
        if (editor.copy()) void message.info(t('agent.editor.copied'));
      },
      paste: () => void editor.paste(),
      save: () => void editor.flush(),
      fit,
    }),
    [editor, fit, message, t],
  );
  useShortcuts(shortcuts);

  const onImport = async (file: File) => {
    const parsed = parseImport(await file.text());
    if (!parsed.ok) {
      void message.error(t('agent.editor.importInvalid'));
      return;
    }
    editor.replaceDsl(parsed.dsl);
    setSelectedId(null);
    void message.success(t('agent.editor.imported'));
    setTimeout(fit, 50);
  };

  const begin = nodes.find((n) => n.id === 'begin');
  const beginForm = begin?.data.form ?? {};
  const container =
    selected && (selected.data.label === 'Iteration' || selected.data.label === 'Loop')
      ? { id: selected.id, label: selected.data.label }
      : null;

  return (
    <RunStatusContext.Provider value={run.nodes}>
      <div style={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 64px)', margin: -24 }}>
        <EditorToolbar
          title={settings.title}
          saveState={editor.saveState}
          canUndo={editor.canUndo}
          canRedo={editor.canRedo}
          problems={problems}
          onUndo={editor.undo}
          onRedo={editor.redo}
          onSave={() => void editor.flush()}
          onImport={(f) => void onImport(f)}
          onExport={() => downloadJson(exportFileName(settings.title), editor.currentDsl())}
          onVersions={() => setPanel('versions')}
          onSettings={() => setPanel('settings')}
          onRun={() => setPanel('run')}
          onProblem={(id) => setSelectedId(id)}
        />
        <div style={{ display: 'flex', flex: 1, minHeight: 0 }}>
          <Palette container={container} onAdd={(op) => addByClick(op, selected)} />
          <div
            ref={wrapper}
            style={{ flex: 1, minWidth: 0 }}
            onDragOver={onDragOver}
            onDrop={onDrop}
            data-testid="agent-canvas"
          >
            <ReactFlow
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              onNodesChange={editor.onNodesChange}
              onEdgesChange={editor.onEdgesChange}
              onConnect={editor.onConnect}
              onNodeDragStart={editor.onNodeDragStart}
              onNodeClick={(_e, node) => setSelectedId(node.id)}
              onPaneClick={() => setSelectedId(null)}
              deleteKeyCode={['Backspace', 'Delete']}
              fitView
              fitViewOptions={{ padding: 0.2 }}
              minZoom={0.1}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={16} />
              <Controls onFitView={fit} />
              <MiniMap pannable zoomable ariaLabel={t('agent.editor.minimap')} />
            </ReactFlow>
          </div>
          <NodeFormPanel
            node={panel === 'run' ? null : selected}
            nodes={nodes}
            edges={edges}
            conversationVariables={(initialDsl.variables ?? {}) as Record<string, unknown>}
            onForm={editor.updateForm}
            onData={editor.updateNodeData}
            onDebug={setDebugNode}
            onClose={() => setSelectedId(null)}
          />
          <RunPanel
            open={panel === 'run'}
            canvasId={canvas.id}
            run={run}
            dispatch={dispatch}
            beginInputs={inputsObject(beginForm.inputs) as Record<string, { name?: string; type?: string }>}
            prologue={beginForm.enablePrologue === false ? '' : String(beginForm.prologue ?? '')}
            beforeRun={beforeRun}
            afterRun={() => void afterRun()}
            onClose={() => setPanel(null)}
          />
        </div>
      </div>
      <VersionDrawer
        canvasId={canvas.id}
        open={panel === 'versions'}
        onClose={() => setPanel(null)}
        onRestore={(dsl) => {
          editor.replaceDsl(loadDsl(dsl));
          setSelectedId(null);
          void editor.flush();
          setTimeout(fit, 50);
        }}
      />
      <SettingsModal
        canvasId={canvas.id}
        open={panel === 'settings'}
        value={settings}
        onClose={() => setPanel(null)}
        onSaved={setSettings}
      />
      <DebugModal
        canvasId={canvas.id}
        node={debugNode}
        beforeRun={beforeRun}
        onClose={() => setDebugNode(null)}
      />
    </RunStatusContext.Provider>
  );
}
