import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { changeLanguage } from '../../../i18n';
import { useMetadataSummaries } from '../../../api/document';
import type { FieldContext, Form } from './fields';
import { RetrievalForm } from './model-forms';

/**
 * The agent Retrieval component's form with its `meta_data_filter` (AGENTS.md Retrieval params):
 * keys are suggested from the chosen knowledge bases only (not from references in `kb_ids`), a manual
 * filter without a condition shows its problem, and the built condition is stored on the node form.
 */

vi.mock('../../../api/kb', () => ({
  useAllKbs: () => ({ data: [{ id: 'kb1', name: 'Docs' }], isPending: false }),
}));
vi.mock('../../../api/document', () => ({
  useMetadataSummaries: vi.fn(() => ({ data: [{ author: [['Alice', 2]] }] })),
}));
vi.mock('../../../api/llm', () => ({ useModelList: () => ({ data: [], isPending: false }) }));
// React's act() warns unless the environment says it is a test one.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let host: HTMLDivElement;
let stored: Form = {};

function Harness({ initial }: { initial: Form }) {
  const [form, setForm] = useState<Form>(initial);
  stored = form;
  const ctx: FieldContext = {
    form,
    set: (key, value) => setForm((f) => ({ ...f, [key]: value })),
    patch: (values) => setForm((f) => ({ ...f, ...values })),
    variables: [],
    issueOf: () => undefined,
  };
  return <RetrievalForm ctx={ctx} />;
}

function type(el: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')?.set;
  setter?.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

beforeEach(async () => {
  await changeLanguage('en');
  host = document.createElement('div');
  document.body.appendChild(host);
  await act(async () => {
    root = createRoot(host);
    root.render(
      <QueryClientProvider client={new QueryClient()}>
        <Harness
          initial={{
            kb_ids: ['kb1', '{sys.kb}'],
            meta_data_filter: { method: 'manual', logic: 'and', manual: [] },
          }}
        />
      </QueryClientProvider>,
    );
  });
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  host.remove();
});

describe('RetrievalForm metadata filter', () => {
  it('suggests from the chosen KBs, shows the problem, stores the built condition', async () => {
    expect(vi.mocked(useMetadataSummaries)).toHaveBeenCalledWith(['kb1']);
    const field = host.querySelector('[data-testid="field-meta_data_filter"]') as HTMLElement;
    expect(field.textContent).toContain('Metadata filter');
    expect(field.textContent).toContain('Add at least one condition, or turn the filter off.');

    const add = [...field.querySelectorAll('button')].find((b) => b.textContent?.includes('Add condition'))!;
    await act(async () => add.click());
    const row = () => field.querySelector('[data-testid="meta-filter-row"]') as HTMLElement;
    const inputs = () => [...row().querySelectorAll('input')];
    await act(async () => type(inputs()[0], 'author'));
    await act(async () => type(inputs().at(-1)!, 'Alice'));
    expect(stored.meta_data_filter).toEqual({
      method: 'manual',
      logic: 'and',
      manual: [{ key: 'author', op: 'is', value: 'Alice' }],
    });
    // antd lets the old help text leave with a motion: wait for it to go.
    await vi.waitFor(() => expect(field.textContent).not.toContain('Add at least one condition'), {
      timeout: 5000,
    });
    expect(stored.kb_ids).toEqual(['kb1', '{sys.kb}']);
  }, 30_000);
});
