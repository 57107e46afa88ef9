import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp } from 'antd';
import { ReactFlowProvider } from '@xyflow/react';
import '../../../i18n';
import type { CanvasDetail } from '../../../api/canvas';
import { bindFeedback } from '../../../api/feedback';
import { EditorWorkspace } from './EditorWorkspace';

/**
 * The editor mounted in happy-dom with a canvas of several node kinds: the nodes render with their
 * branch handles and containers, the palette adds a connected node after the selected one, and the
 * new Message's form shows the SPEC §5 message rule. (Server calls fail here: nothing is saved.)
 */

const dsl = {
  components: {},
  graph: {
    nodes: [
      {
        id: 'begin',
        type: 'beginNode',
        position: { x: 0, y: 0 },
        data: { label: 'Begin', name: 'begin', form: { mode: 'conversational', prologue: 'Hello' } },
      },
      {
        id: 'Switch:A',
        type: 'switchNode',
        position: { x: 300, y: 0 },
        data: {
          label: 'Switch',
          name: 'Route',
          form: {
            conditions: [
              { logical_operator: 'and', items: [], to: [] },
              { logical_operator: 'and', items: [], to: [] },
            ],
            end_cpn_ids: [],
          },
        },
      },
      {
        id: 'Loop:B',
        type: 'loopNode',
        position: { x: 600, y: 0 },
        width: 520,
        height: 240,
        data: { label: 'Loop', name: 'Repeat', form: { loop_variables: [] } },
      },
      {
        id: 'LoopItem:C',
        type: 'loopStartNode',
        parentId: 'Loop:B',
        extent: 'parent',
        position: { x: 40, y: 90 },
        data: { label: 'LoopItem', name: 'Repeat start', form: {} },
      },
    ],
    edges: [{ id: 'e1', source: 'begin', sourceHandle: 'start', target: 'Switch:A', targetHandle: 'end' }],
  },
};

const canvas = {
  id: 'c1',
  title: 'Smoke',
  avatar: null,
  description: null,
  permission: 'me',
  canvas_category: 'agent_canvas',
  dsl,
} as unknown as CanvasDetail;

let root: Root | null = null;
let host: HTMLDivElement;

beforeAll(() => {
  // React Flow measures nodes; happy-dom has no layout, so a no-op observer stands in.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('no server in this test'));
  // The failed saves report through the feedback toasts; antd's static toasts would render in a React
  // root of their own whose timers outlive the test environment ("window is not defined" after teardown).
  bindFeedback({ message: { error: vi.fn(), success: vi.fn() }, notification: { error: vi.fn() } });
});

afterEach(async () => {
  act(() => root?.unmount());
  host?.remove();
  // Let work React scheduled before the unmount finish while the DOM still exists.
  await new Promise((resolve) => setTimeout(resolve, 50));
});

async function mount() {
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root?.render(
      <MemoryRouter>
        <QueryClientProvider client={client}>
          <AntdApp>
            <ReactFlowProvider>
              <EditorWorkspace canvas={canvas} />
            </ReactFlowProvider>
          </AntdApp>
        </QueryClientProvider>
      </MemoryRouter>,
    );
  });
}

const q = (sel: string) => document.body.querySelector(sel);

describe('editor workspace', { timeout: 60_000 }, () => {
  it('renders nodes, Switch case handles, the Loop container and palette groups; adds after the selection; undoes', async () => {
    await mount();
    expect(q('[data-testid="node-Route"]')).not.toBeNull();
    expect(q('[data-testid="node-Repeat"]')).not.toBeNull();
    expect(q('[data-testid="node-Repeat start"]')).not.toBeNull();
    const handles = [...document.body.querySelectorAll('[data-testid^="handle-"]')].map((h) =>
      h.getAttribute('data-testid'),
    );
    expect(handles).toEqual(['handle-Case 1', 'handle-Case 2', 'handle-end_cpn_ids']);
    const groups = [...document.body.querySelectorAll('nav .ant-collapse-header')].map((h) => h.textContent);
    expect(groups).toEqual(['Foundation', 'Dialogue', 'Flow', 'Data manipulation', 'Tools']);
    expect(q('[data-testid="save-state"]')?.getAttribute('data-state')).toBe('saved');

    // A palette click with a node selected adds the new node after it; its form shows the message rule.
    await act(async () => (q('[data-testid="node-begin"]') as HTMLElement).click());
    await act(async () => (q('[data-testid="palette-Message"]') as HTMLElement).click());
    expect(q('[data-testid="node-Message_0"]')).not.toBeNull();
    expect(document.body.textContent).toContain('Write the message text, or remove the empty text.');
    // the change left the saved state (the save itself fails here: there is no server)
    expect(q('[data-testid="save-state"]')?.getAttribute('data-state')).not.toBe('saved');
    await act(async () => (q('[data-testid="undo"]') as HTMLElement).click());
    expect(q('[data-testid="node-Message_0"]')).toBeNull();
  });
});
